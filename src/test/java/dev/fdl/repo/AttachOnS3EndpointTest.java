package dev.fdl.repo;

import dev.fdl.site.Site;
import dev.fdl.site.SiteOptions;
import dev.fdl.store.S3MockServer;
import dev.fdl.store.S3ReaderEndpoint;
import dev.fdl.store.S3Store;
import dev.fdl.store.UsesS3Mock;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Attach statements for an s3:// root behind a custom endpoint name it in an S3 secret (docs/stores.md). */
@UsesS3Mock
class AttachOnS3EndpointTest {
    @Test
    void theSecretNamesEndpointAddressingAndSslWithoutKeyMaterial() {
        assertThat(AttachStatements.s3Secret(new S3ReaderEndpoint("127.0.0.1:9090", false, true, "us-east-1"), "s3://b/cities/", "cities"))
                .isEqualTo("CREATE OR REPLACE SECRET cities_s3 (TYPE s3, PROVIDER credential_chain, ENDPOINT '127.0.0.1:9090', "
                        + "URL_STYLE 'path', USE_SSL false, REGION 'us-east-1', SCOPE 's3://b/cities/');");
        assertThat(AttachStatements.s3Secret(new S3ReaderEndpoint("acc.r2.example", true, false, null), "s3://b/it's/", "my db"))
                .isEqualTo("CREATE OR REPLACE SECRET \"my db_s3\" (TYPE s3, PROVIDER credential_chain, ENDPOINT 'acc.r2.example', "
                        + "URL_STYLE 'vhost', USE_SSL true, SCOPE 's3://b/it''s/');");
    }

    @Test
    void attachAndTheSitesS3BlockCreateTheSecretBeforeAttachingAndNeverShowCredentials() {
        S3MockServer s3 = S3MockServer.shared();
        try (S3Store store = s3.newStore()) {
            Repository repo = Repository.init(store, new RefName("main"));
            String id = TestVersions.addVersion(store, List.of(), 1, "first");
            TestVersions.setBranch(store, "main", id);
            VersionInfo v = repo.readVersion(id).orElseThrow();

            List<String> sql = AttachStatements.of(repo, v, null, "cities");
            String port = String.valueOf(s3.endpoint().getPort());
            int secret = indexOf(sql, "CREATE OR REPLACE SECRET cities_s3 (TYPE s3, PROVIDER credential_chain, ENDPOINT '127.0.0.1:" + port + "', "
                    + "URL_STYLE 'path', USE_SSL false, REGION 'us-east-1', SCOPE '" + store.root() + "');");
            assertThat(secret).isGreaterThan(indexOf(sql, "LOAD httpfs;")).isGreaterThan(indexOf(sql, "LOAD aws;")).isLessThan(indexOf(sql, "ATTACH "));
            String all = String.join("\n", sql);
            assertThat(all).doesNotContain(S3MockServer.SECRET_KEY).doesNotContain("KEY_ID").doesNotContain("SECRET '");

            // another root: that endpoint is not this store's, so no secret is made up for it
            assertThat(AttachStatements.of(repo, v, "https://example.org/cities/", "cities")).noneMatch(s -> s.contains("SECRET"));

            String page = new String(Site.render(repo, SiteOptions.defaults()).get("site/versions/" + id + ".html"), StandardCharsets.UTF_8);
            assertThat(page).contains("CREATE OR REPLACE SECRET v_" + id.substring(0, 8) + "_s3", "ENDPOINT &#39;127.0.0.1:" + port)
                    .doesNotContain(S3MockServer.SECRET_KEY);
        }
    }

    private static int indexOf(List<String> sql, String prefix) {
        for (int i = 0; i < sql.size(); i++) if (sql.get(i).startsWith(prefix)) return i;
        throw new AssertionError("no statement starting with " + prefix + " in " + sql);
    }
}
