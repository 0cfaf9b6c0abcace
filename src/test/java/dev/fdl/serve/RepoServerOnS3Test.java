package dev.fdl.serve;

import dev.fdl.repo.RefName;
import dev.fdl.repo.Repository;
import dev.fdl.site.Site;
import dev.fdl.site.SiteOptions;
import dev.fdl.store.Payload;
import dev.fdl.store.S3MockServer;
import dev.fdl.store.S3Store;
import dev.fdl.store.UsesS3Mock;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code fdl serve} over an {@code s3://} root: its requests run on the server's pool (store calls
 * block) and large objects are streamed by range from S3.
 */
@UsesS3Mock
class RepoServerOnS3Test {
    /** A request that fails instead of waiting forever for a body shorter than its Content-Length. */
    private static HttpRequest.Builder request(URI uri) {
        return HttpRequest.newBuilder(uri).timeout(java.time.Duration.ofSeconds(60));
    }

    @Test
    void rangesWholeObjects304AndSitePagesComeFromS3() throws Exception {
        S3MockServer s3 = S3MockServer.shared();
        HttpClient http = HttpClient.newHttpClient();
        try (S3Store store = s3.newStore()) {
            Repository.init(store, new RefName("main"));
            // larger than the whole-read limit: streamed in chunks from a ranged GetObject
            byte[] big = new byte[RepoServer.WHOLE_READ_LIMIT * 2 + 12345];
            new Random(3).nextBytes(big);
            String key = "versions/0000/ducklake.duckdb";
            store.put(key, Payload.of(big));
            try (RepoServer server = RepoServer.start(store, SiteOptions.defaults(), "127.0.0.1", 0)) {
                URI uri = URI.create(server.url() + key);
                HttpResponse<byte[]> whole = http.send(request(uri).build(), HttpResponse.BodyHandlers.ofByteArray());
                assertThat(whole.statusCode()).isEqualTo(200);
                assertThat(whole.body()).isEqualTo(big);
                HttpResponse<byte[]> range = http.send(request(uri).header("Range", "bytes=1000000-1200000").build(),
                        HttpResponse.BodyHandlers.ofByteArray());
                assertThat(range.statusCode()).isEqualTo(206);
                assertThat(range.headers().firstValue("Content-Range")).hasValue("bytes 1000000-1200000/" + big.length);
                assertThat(range.body()).isEqualTo(Arrays.copyOfRange(big, 1000000, 1200001));
                String etag = whole.headers().firstValue("ETag").orElseThrow();
                assertThat(http.send(request(uri).header("If-None-Match", etag).build(),
                        HttpResponse.BodyHandlers.ofByteArray()).statusCode()).isEqualTo(304);
                assertThat(http.send(request(uri).header("Range", "bytes=" + big.length + "-").build(),
                        HttpResponse.BodyHandlers.ofByteArray()).statusCode()).isEqualTo(416);
                HttpResponse<byte[]> ref = http.send(request(URI.create(server.url() + "HEAD")).build(),
                        HttpResponse.BodyHandlers.ofByteArray());
                assertThat(new String(ref.body(), StandardCharsets.UTF_8)).contains("main");
                HttpResponse<byte[]> index = http.send(request(server.url()).build(), HttpResponse.BodyHandlers.ofByteArray());
                assertThat(index.statusCode()).isEqualTo(200);
                assertThat(index.headers().firstValue("Content-Type")).hasValue("text/html; charset=utf-8");
                assertThat(http.send(request(URI.create(server.url() + "nope")).build(),
                        HttpResponse.BodyHandlers.ofByteArray()).statusCode()).isEqualTo(404);
            }
        }
    }
}
