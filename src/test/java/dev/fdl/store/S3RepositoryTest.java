package dev.fdl.store;

import dev.fdl.FdlException;
import dev.fdl.repo.RefName;
import dev.fdl.repo.Repository;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URI;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Repository init/open over S3 (Stores.open wiring, the init probe) and the environment configuration. */
@UsesS3Mock
class S3RepositoryTest {
    @Test
    void storesOpenReachesTheEndpointOfTheEnvironmentAndARepositoryWorksThere() {
        S3MockServer s3 = S3MockServer.shared();
        s3.installSystemProperties();
        String root = s3.newRoot();

        try (ObjectStore store = Stores.open(root)) {
            assertThat(store).isInstanceOf(S3Store.class);
            Repository repo = Repository.init(store, new RefName("main"));
            assertThat(repo.dataLocation()).isEqualTo(root + "data/");
            assertThat(Repository.open(store).headBranch().name()).isEqualTo("main");
            assertThatThrownBy(() -> Repository.init(store, new RefName("main")))
                    .isInstanceOf(FdlException.class).hasMessageContaining("already exists");
        }
    }

    @Test
    void aMissingBucketIsNoSuchRepositoryLikeAMissingPrefix() {
        S3MockServer s3 = S3MockServer.shared();
        s3.installSystemProperties();
        String bucket = s3.newBucket();
        dev.fdl.cli.Cli.Result prefix = dev.fdl.cli.Cli.run("log", "--repo", "s3://" + bucket + "/nothing-here/");
        dev.fdl.cli.Cli.Result noBucket = dev.fdl.cli.Cli.run("log", "--repo", "s3://" + bucket + "-gone/x/");

        assertThat(prefix.exit()).as(prefix.toString()).isEqualTo(4);
        assertThat(noBucket.exit()).as(noBucket.toString()).isEqualTo(4);
        assertThat(noBucket.err()).contains("no fdl repository at s3://" + bucket + "-gone/x/", "no such bucket '" + bucket + "-gone'")
                .doesNotContain(S3MockServer.SECRET_KEY);
    }

    @Test
    void initRefusesAStoreThatIgnoresConditionalWritesAndWritesNothing() throws IOException {
        S3MockServer s3 = S3MockServer.shared();
        String root = s3.newRoot();
        try (FaultyS3Proxy proxy = new FaultyS3Proxy(s3.endpoint());
             S3Store store = new S3Store(S3Location.parse(root), S3Config.endpoint(proxy.endpoint(), S3MockServer.REGION),
                     S3MockServer.credentials())) {
            proxy.stripConditions = true;

            assertThatThrownBy(() -> Repository.init(store, new RefName("main")))
                    .isInstanceOf(StoreException.class).hasMessageContaining("ignores conditional writes");
            assertThat(store.get("fdl.json")).isEmpty();
            assertThat(store.get("HEAD")).isEmpty();
        }
    }

    @Test
    void theEndpointComesFromAwsEndpointUrlS3ThenAwsEndpointUrlAndTurnsOnPathStyle() {
        S3Config specific = S3Config.from(Map.of("AWS_ENDPOINT_URL_S3", "http://127.0.0.1:9000",
                "AWS_ENDPOINT_URL", "http://127.0.0.1:1"), new Properties());
        S3Config general = S3Config.from(Map.of("AWS_ENDPOINT_URL", "https://acc.r2.cloudflarestorage.com"), new Properties());
        S3Config aws = S3Config.from(Map.of(), new Properties());
        S3Config forced = S3Config.from(Map.of("FDL_S3_PATH_STYLE", "true"), new Properties());
        S3Config off = S3Config.from(Map.of("AWS_ENDPOINT_URL", "http://minio:9000", "FDL_S3_PATH_STYLE", "false"), new Properties());

        assertThat(specific.endpoint()).isEqualTo(URI.create("http://127.0.0.1:9000"));
        assertThat(specific.pathStyle()).isTrue();
        assertThat(general.endpoint()).isEqualTo(URI.create("https://acc.r2.cloudflarestorage.com"));
        assertThat(aws.endpoint()).isNull();
        assertThat(aws.pathStyle()).isFalse();
        assertThat(forced.pathStyle()).isTrue();
        assertThat(off.pathStyle()).isFalse();
    }

    @Test
    void aMalformedEndpointOrPathStyleIsAUsageErrorWithoutCredentials() {
        assertThatThrownBy(() -> S3Config.from(Map.of("AWS_ENDPOINT_URL", "ftp://host"), new Properties()))
                .isInstanceOf(FdlException.class).hasMessageContaining("AWS_ENDPOINT_URL");
        assertThatThrownBy(() -> S3Config.from(Map.of("AWS_ENDPOINT_URL", "https://key:secret@host"), new Properties()))
                .isInstanceOf(FdlException.class).satisfies(e -> assertThat(e.getMessage()).doesNotContain("secret"));
        assertThatThrownBy(() -> S3Config.from(Map.of("FDL_S3_PATH_STYLE", "yes"), new Properties()))
                .isInstanceOf(FdlException.class).hasMessageContaining("FDL_S3_PATH_STYLE");
    }

    @Test
    void anS3RootNamesABucketAndAPrefix() {
        assertThat(S3Location.parse("s3://bucket/some/prefix")).isEqualTo(new S3Location("bucket", "some/prefix/"));
        assertThat(S3Location.parse("s3://bucket").root()).isEqualTo("s3://bucket/");
        assertThat(S3Location.parse("s3://bucket/p/").objectKey("refs/heads/main")).isEqualTo("p/refs/heads/main");
        assertThatThrownBy(() -> S3Location.parse("s3:///p/")).isInstanceOf(FdlException.class);
        assertThatThrownBy(() -> S3Location.parse("s3://key:secret@bucket/p/")).isInstanceOf(FdlException.class)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("secret"));
        assertThatThrownBy(() -> S3Location.parse("s3://bucket/a/../b/")).isInstanceOf(FdlException.class);
    }
}
