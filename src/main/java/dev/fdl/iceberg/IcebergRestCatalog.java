package dev.fdl.iceberg;

import dev.fdl.FdlException;
import dev.fdl.repo.RepoLayout;
import dev.fdl.repo.Repository;
import dev.fdl.store.ObjectMeta;
import dev.fdl.store.ObjectStore;
import dev.fdl.store.S3ReaderEndpoint;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTResponse;
import org.apache.iceberg.rest.RESTUtil;
import org.apache.iceberg.rest.responses.ConfigResponse;
import org.apache.iceberg.rest.responses.ConfigResponseParser;
import org.apache.iceberg.rest.responses.ErrorResponse;
import org.apache.iceberg.rest.responses.ErrorResponseParser;
import org.apache.iceberg.rest.responses.GetNamespaceResponse;
import org.apache.iceberg.rest.responses.ListNamespacesResponse;
import org.apache.iceberg.rest.responses.ListTablesResponse;
import org.apache.iceberg.rest.responses.LoadTableResponse;
import org.apache.iceberg.rest.responses.LoadTableResponseParser;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * A read-only Iceberg REST catalog over the repository's Iceberg history (docs/iceberg.md, "REST
 * catalog"; the Iceberg REST OpenAPI specification, {@code /v1/...} without a prefix): namespaces
 * are the schemas and tables the tables that have a history ({@link IcebergHistory}), and loading
 * a table returns its history metadata, whose refs are fdl's branches and tags. Every response
 * body is one of Iceberg's own response models, written by Iceberg's own parsers where it has one
 * (see {@code json}). Write verbs
 * (create, update, drop, rename, register, commit) answer 403 with an {@code ErrorResponse} of type
 * {@code ForbiddenException}; a method a route does not have answers 405; a missing namespace or
 * table 404 ({@code NoSuchNamespaceException}, {@code NoSuchTableException}); scan metrics a
 * client reports are accepted (204) and dropped. Only keys built by {@link RepoLayout#icebergHistory}
 * are read: a name that is not one key segment is a missing table.
 */
public final class IcebergRestCatalog {
    /** The path prefix of every REST catalog route. */
    public static final String PREFIX = "/v1/";
    /** The HTTP method that answers as GET without a body. */
    private static final String HEAD_METHOD = "HEAD";
    /** The namespace separator in a path segment: the REST spec's default (the config names no other). */
    private static final String NAMESPACE_SEPARATOR = "%1F";

    /**
     * A response: HTTP status, JSON body (empty for 204 and for HEAD) and, for 405, the methods the
     * path accepts, for the {@code Allow} header RFC 9110 section 15.5.6 requires (null otherwise).
     */
    public record Answer(int status, byte[] body, String allow) {
        /** A response without an {@code Allow} header. */
        public Answer(int status, byte[] body) {
            this(status, body, null);
        }
    }

    /** The methods of each kind of route, for 405's {@code Allow} (a write verb a route refuses with 403 is still one it accepts). */
    private static final String READ = "GET, HEAD", READ_POST = "GET, HEAD, POST", READ_DELETE = "GET, HEAD, DELETE",
            READ_POST_DELETE = "GET, HEAD, POST, DELETE", POST = "POST";

    private final ObjectStore store;
    private final ObjectMapper mapper = new ObjectMapper();

    /** The catalog over {@code store}'s table histories. */
    public IcebergRestCatalog(ObjectStore store) {
        this.store = store;
    }

    /** Whether {@code rawPath} (a request path, not decoded; null: none) is a REST catalog route. */
    public static boolean handles(String rawPath) {
        return rawPath != null && (rawPath.startsWith(PREFIX) || rawPath.equals("/v1"));
    }

    /**
     * Answers one request.
     *
     * @param method  the HTTP method, upper case
     * @param rawPath the request path as sent (percent-encoded), without the query
     * @param query   the raw query string, or null
     */
    public Answer answer(String method, String rawPath, String query) {
        try {
            String[] raw = rawPath.length() <= PREFIX.length() ? new String[0] : rawPath.substring(PREFIX.length()).split("/", -1);
            return route(method, raw, query);
        } catch (IllegalArgumentException e) {
            return error(400, "BadRequestException", "bad request: " + e.getMessage());
        } catch (FdlException | dev.fdl.store.StoreException e) {
            return error(502, "ServiceFailureException", "the repository could not be read: " + e.getMessage());
        }
    }

    private Answer route(String method, String[] raw, String query) {
        boolean read = method.equals("GET") || method.equals(HEAD_METHOD);
        if (raw.length == 1 && raw[0].equals("config")) {
            return read ? ok(method, ConfigResponse.builder().withDefaults(fileDefaults(store)).build()) : notAllowed(method, READ);
        }
        if (raw.length == 2 && raw[0].equals("tables") && raw[1].equals("rename")
                || raw.length == 2 && raw[0].equals("transactions") && raw[1].equals("commit")) return forbidden(method);
        if (raw.length == 0 || !raw[0].equals("namespaces")) return error(404, "NotFoundException", "no such route: /v1/" + String.join("/", raw));
        if (raw.length == 1) {
            if (read) return ok(method, namespaces(query));
            return method.equals("POST") ? forbidden(method) : notAllowed(method, READ_POST);
        }
        String schema = namespace(raw[1]);
        // a table route reads its one history file, which answers for the namespace too: no listing
        if (schema != null && raw.length >= 4 && raw[2].equals("tables")) return table(method, read, schema, RESTUtil.decodeString(raw[3]), raw);
        if (schema == null || !tables().containsKey(schema)) {
            Namespace asked = RESTUtil.decodeNamespace(raw[1], NAMESPACE_SEPARATOR);
            // a table under a namespace that does not exist is a missing table, as Iceberg's own catalogs
            // answer: engines resolving `ns.table.branch_x` try the longer namespace first and expect it
            if (raw.length == 4 && raw[2].equals("tables") && read)
                return error(404, "NoSuchTableException", "Table does not exist: " + asked + "." + RESTUtil.decodeString(raw[3]));
            return error(404, "NoSuchNamespaceException", "Namespace does not exist: " + asked);
        }
        if (raw.length == 2) {
            if (read) return ok(method, GetNamespaceResponse.builder().withNamespace(Namespace.of(schema)).build());
            return method.equals("DELETE") ? forbidden(method) : notAllowed(method, READ_DELETE);
        }
        if (raw.length == 3) return namespaceChild(method, read, schema, raw[2]);
        return error(404, "NotFoundException", "no such route");
    }

    private Answer namespaceChild(String method, boolean read, String schema, String child) {
        switch (child) {
            case "properties", "register":
                return method.equals("POST") ? forbidden(method) : notAllowed(method, POST);
            case "tables": {
                if (method.equals("POST")) return forbidden(method);
                if (!read) return notAllowed(method, READ_POST);
                ListTablesResponse.Builder b = ListTablesResponse.builder();
                for (String t : tables().get(schema)) b.add(TableIdentifier.of(schema, t));
                return ok(method, b.build());
            }
            case "views":
                if (method.equals("POST")) return forbidden(method);
                return read ? ok(method, ListTablesResponse.builder().build()) : notAllowed(method, READ_POST);
            default:
                return error(404, "NotFoundException", "no such route");
        }
    }

    private Answer table(String method, boolean read, String schema, String table, String[] raw) {
        if (raw.length == 5 && raw[4].equals("metrics")) return method.equals("POST") ? new Answer(204, new byte[0]) : notAllowed(method, POST);
        if (raw.length != 4) return error(404, "NotFoundException", "no such route");
        if (method.equals("POST") || method.equals("DELETE")) return forbidden(method);
        if (!read) return notAllowed(method, READ_POST_DELETE);
        String key;
        try {
            key = IcebergHistory.metadataKey(schema, table);
        } catch (IllegalArgumentException e) {
            key = null;
        }
        byte[] json = key == null ? null : store.get(key).map(dev.fdl.store.ObjectBytes::bytes).orElse(null);
        if (json == null) return error(404, "NoSuchTableException", "Table does not exist: " + schema + "." + table);
        if (method.equals(HEAD_METHOD)) return new Answer(204, new byte[0]);
        String root = IcebergLocation.of(store, Repository.open(store).config(), null);
        TableMetadata m = TableMetadataParser.fromJson(root + key, new String(json, StandardCharsets.UTF_8));
        return ok(method, LoadTableResponse.builder().withTableMetadata(m).build());
    }

    /**
     * The config defaults that tell a client how to reach the files of a repository on an
     * S3-compatible store (Iceberg's {@code S3FileIO} keys: {@code s3.endpoint},
     * {@code s3.path-style-access}, and {@code client.region} when the store names one); none for
     * AWS S3 itself, a folder or HTTP. Never credentials: each reader brings its own. Defaults, so a client's own setting wins.
     */
    static Map<String, String> fileDefaults(ObjectStore store) {
        // a map that answers containsKey(null), which Iceberg's builder asks (Map.of and TreeMap throw)
        Map<String, String> d = new java.util.LinkedHashMap<>();
        S3ReaderEndpoint e = store.customS3Endpoint().orElse(null);
        if (e == null) return d;
        d.put("s3.endpoint", (e.useSsl() ? "https://" : "http://") + e.hostPort());
        d.put("s3.path-style-access", Boolean.toString(e.pathStyle()));
        if (e.region() != null) d.put("client.region", e.region());
        return d;
    }

    /** The one-level namespace a path segment names (Iceberg encodes levels with {@code %1F}); null for a nested one. */
    private static String namespace(String segment) {
        Namespace ns = RESTUtil.decodeNamespace(segment, NAMESPACE_SEPARATOR);
        return ns.levels().length == 1 ? ns.level(0) : null;
    }

    private ListNamespacesResponse namespaces(String query) {
        ListNamespacesResponse.Builder b = ListNamespacesResponse.builder();
        boolean nested = query != null && RESTUtil.decodeFormData(query).containsKey("parent");
        if (!nested) for (String s : tables().keySet()) b.add(Namespace.of(s));
        return b.build(); // namespaces have one level: none has children
    }

    /** Every table with a history, by schema (listed from {@code iceberg/}). */
    private Map<String, TreeSet<String>> tables() {
        Map<String, TreeSet<String>> out = new TreeMap<>();
        if (!store.canList()) return out;
        String suffix = "/metadata/" + IcebergHistory.METADATA_FILE;
        try (Stream<ObjectMeta> s = store.list(RepoLayout.HISTORY)) {
            s.map(ObjectMeta::key).filter(k -> k.endsWith(suffix)).forEach(k -> {
                String[] parts = k.substring(RepoLayout.HISTORY.length(), k.length() - suffix.length()).split("/");
                if (parts.length == 2) out.computeIfAbsent(parts[0], x -> new TreeSet<>()).add(parts[1]);
            });
        }
        return out;
    }

    private Answer ok(String method, RESTResponse response) {
        return new Answer(200, method.equals(HEAD_METHOD) ? new byte[0] : json(response));
    }

    private Answer forbidden(String method) {
        return error(403, "ForbiddenException", "fdl serve is read-only: " + method + " is refused; change the repository with fdl commands");
    }

    private Answer notAllowed(String method, String allow) {
        Answer e = error(405, "MethodNotAllowedException", method + " is not allowed here (allowed: " + allow + ")");
        return new Answer(e.status(), e.body(), allow);
    }

    private Answer error(int status, String type, String message) {
        return new Answer(status, json(ErrorResponse.builder().responseCode(status).withType(type).withMessage(message).build()));
    }

    /**
     * The response's JSON. Iceberg's own parsers write the responses that have one (config, error,
     * load table); the three list and namespace responses, which Iceberg serializes only through its
     * package-private Jackson set-up, are written from their models' getters in the OpenAPI
     * specification's shape. No Jackson object crosses into Iceberg, so this works whichever Jackson
     * Iceberg was built against (the Spark runtime jar relocates it).
     */
    private byte[] json(RESTResponse response) {
        String text;
        if (response instanceof ConfigResponse c) text = ConfigResponseParser.toJson(c);
        else if (response instanceof ErrorResponse e) text = ErrorResponseParser.toJson(e);
        else if (response instanceof LoadTableResponse t) text = LoadTableResponseParser.toJson(t);
        else text = modelJson(response);
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private String modelJson(RESTResponse response) {
        ObjectNode out = mapper.createObjectNode();
        if (response instanceof ListNamespacesResponse l) {
            ArrayNode list = out.putArray("namespaces");
            for (Namespace n : l.namespaces()) levels(list.addArray(), n);
        } else if (response instanceof ListTablesResponse l) {
            ArrayNode list = out.putArray("identifiers");
            for (TableIdentifier id : l.identifiers()) {
                ObjectNode o = list.addObject();
                levels(o.putArray("namespace"), id.namespace());
                o.put("name", id.name());
            }
        } else if (response instanceof GetNamespaceResponse g) {
            levels(out.putArray("namespace"), g.namespace());
            ObjectNode props = out.putObject("properties");
            g.properties().forEach(props::put);
        } else {
            throw new IllegalArgumentException("no JSON form for " + response.getClass().getSimpleName());
        }
        try {
            return mapper.writeValueAsString(out);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write a REST catalog response", e);
        }
    }

    private static void levels(ArrayNode into, Namespace n) {
        for (String level : n.levels()) into.add(level);
    }
}
