package dev.fdl.iceberg;

import dev.fdl.repo.Repository;
import dev.fdl.serve.RepoServer;
import dev.fdl.site.SiteOptions;
import dev.fdl.store.LocalStore;
import dev.fdl.util.Json;
import com.fasterxml.jackson.databind.JsonNode;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** docs/iceberg.md, "REST catalog": Iceberg's own RESTCatalog client against fdl serve reads every branch and tag, and is refused every write. */
class IcebergRestCatalogTest {
    @TempDir Path dir;

    @Test
    void icebergsRestClientListsLoadsAndReadsRefsAndIsRefusedWrites() throws Exception {
        IcebergHistoryCliTest.threeVersions(dir);
        Path root = dir.resolve("repo"), wc = dir.resolve("wc");
        String repo = root.toString();
        LocalStore store = new LocalStore(root);
        try (RepoServer server = RepoServer.start(store, SiteOptions.of(Repository.open(store).config()), "127.0.0.1", 0);
             RESTCatalog catalog = new RESTCatalog()) {
            catalog.initialize("fdl", Map.of(CatalogProperties.URI, server.url().toString(), CatalogProperties.FILE_IO_IMPL, LocalFileIO.class.getName()));
            assertThat(catalog.listNamespaces()).containsExactly(Namespace.of("main"));
            assertThat(catalog.listNamespaces(Namespace.of("main"))).isEmpty();
            assertThat(catalog.listTables(Namespace.of("main"))).containsExactly(TableIdentifier.of("main", "t"));
            assertThat(catalog.namespaceExists(Namespace.of("nosuch"))).isFalse();
            TableIdentifier id = TableIdentifier.of("main", "t");
            assertThat(catalog.tableExists(id)).isTrue();
            Table t = catalog.loadTable(id);
            assertThat(t.refs().keySet()).containsExactlyInAnyOrder("main", "v1", "staging");
            assertThat(IcebergRows.icebergAt(t, "v1")).isEqualTo(IcebergRows.fdl(wc, repo, "v1", "t")).hasSize(3);
            assertThat(IcebergRows.icebergAt(t, "staging")).isEqualTo(IcebergRows.fdl(wc, repo, "staging", "t")).hasSize(4);
            assertThat(IcebergRows.icebergAt(t, "main")).isEqualTo(IcebergRows.fdl(wc, repo, "main", "t"));

            // writes are refused by the server with the spec's 403 ForbiddenException; nothing changes
            Schema schema = new Schema(Types.NestedField.optional(1, "x", Types.IntegerType.get()));
            assertThatThrownBy(() -> catalog.createNamespace(Namespace.of("x"))).isInstanceOf(ForbiddenException.class).hasMessageContaining("read-only");
            assertThatThrownBy(() -> catalog.createTable(TableIdentifier.of("main", "u"), schema)).isInstanceOf(ForbiddenException.class);
            assertThatThrownBy(() -> catalog.dropTable(id)).isInstanceOf(ForbiddenException.class);
            assertThatThrownBy(() -> catalog.renameTable(id, TableIdentifier.of("main", "u"))).isInstanceOf(ForbiddenException.class);
            assertThatThrownBy(() -> t.updateProperties().set("a", "b").commit()).isInstanceOf(ForbiddenException.class);
            assertThat(catalog.listTables(Namespace.of("main"))).containsExactly(id);
            // missing: the spec's 404 errors
            assertThatThrownBy(() -> catalog.loadTable(TableIdentifier.of("main", "nosuch"))).isInstanceOf(NoSuchTableException.class);
            assertThatThrownBy(() -> catalog.loadTable(TableIdentifier.of("nosuch", "t"))).isInstanceOf(NoSuchTableException.class);
            assertThatThrownBy(() -> catalog.listTables(Namespace.of("nosuch"))).isInstanceOf(NoSuchNamespaceException.class);
            assertThat(catalog.tableExists(TableIdentifier.of("main", "nosuch"))).isFalse();
            rawRequests(server.url());
        }
    }

    /** What a client other than Iceberg's sees: status, ErrorResponse JSON, no key outside the history. */
    private static void rawRequests(URI base) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        HttpResponse<String> post = http.send(HttpRequest.newBuilder(base.resolve("v1/namespaces"))
                .POST(HttpRequest.BodyPublishers.ofString("{\"namespace\":[\"x\"]}")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(post.statusCode()).isEqualTo(403);
        JsonNode error = Json.MAPPER.readTree(post.body()).get("error");
        assertThat(error.get("type").asText()).isEqualTo("ForbiddenException");
        assertThat(error.get("code").asInt()).isEqualTo(403);
        HttpResponse<String> put = http.send(HttpRequest.newBuilder(base.resolve("v1/config")).PUT(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(put.statusCode()).isEqualTo(405);
        // RFC 9110 15.5.6: a 405 names the methods the path accepts
        assertThat(put.headers().firstValue("Allow")).hasValue("GET, HEAD");
        HttpResponse<String> patch = http.send(HttpRequest.newBuilder(base.resolve("v1/namespaces/main/tables/t"))
                .method("PATCH", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(patch.statusCode()).isEqualTo(405);
        assertThat(patch.headers().firstValue("Allow")).hasValue("GET, HEAD, POST, DELETE");
        HttpResponse<String> getMetrics = http.send(HttpRequest.newBuilder(base.resolve("v1/namespaces/main/tables/t/metrics")).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(getMetrics.statusCode()).isEqualTo(405);
        assertThat(getMetrics.headers().firstValue("Allow")).hasValue("POST");
        for (String path : new String[] {"v1/namespaces/main/tables/nosuch", "v1/namespaces/main/tables/..", "v1/namespaces/main/tables/a%2Fb",
                "v1/namespaces/..%2F..%2Ffdl.json/tables/t"}) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(base.resolve(path)).GET().build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as(path).isEqualTo(404);
            assertThat(Json.MAPPER.readTree(r.body()).get("error").get("type").asText()).as(path).endsWith("Exception");
        }
        HttpResponse<String> config = http.send(HttpRequest.newBuilder(base.resolve("v1/config")).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(Json.MAPPER.readTree(config.body()).has("defaults")).isTrue();
    }
}
