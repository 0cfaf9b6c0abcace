package dev.fdl.cli;

import dev.fdl.util.ShellQuote;
import dev.fdl.FdlException;
import dev.fdl.repo.Repository;
import dev.fdl.serve.RepoServer;
import dev.fdl.site.Site;
import dev.fdl.site.SiteOptions;
import dev.fdl.store.ObjectStore;
import dev.fdl.store.Stores;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.concurrent.CountDownLatch;

/** {@code fdl serve}: a read-only HTTP server over a repository (see {@link RepoServer}). */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = {"Serve a repository (--repo: a folder or s3://) read-only over HTTP: GET and HEAD with Range, ETag/If-None-Match and CORS, "
                + "the repository's site (rendered on the fly when it has none), nothing else.",
                "Readers attach its versions from any folder with the URL it prints, as from a bucket: fdl attach <ref> --repo http://127.0.0.1:8321/"})
final class ServeCommand implements Runnable {
    @picocli.CommandLine.Mixin MemoryOption memoryOption;
    @Spec CommandSpec spec;
    @Mixin RepoOption repoOption;

    @Option(names = "--root", paramLabel = "<root>", description = "The repository to serve (same as --repo).") String root;
    @Option(names = "--bind", paramLabel = "<address>", defaultValue = "127.0.0.1",
            description = "Address to listen on (default: ${DEFAULT-VALUE}; 0.0.0.0 exposes the repository to the network).")
    String bind;
    @Option(names = "--port", paramLabel = "<port>", defaultValue = "8321", description = "Port (default: ${DEFAULT-VALUE}; 0: any free port).")
    int port;

    @Override
    public void run() {
        if (port < 0 || port > 65535) throw FdlException.usage("--port must be 0-65535: " + port);
        try (ObjectStore store = root != null ? Stores.open(CommandContext.of(spec).cwd().root(root)) : repoOption.openStore()) {
            if (store.readOnly()) throw FdlException.usage(store.root() + " is an HTTP(S) root: it is already served; fdl serve serves a folder or s3://");
            Repository repo = Repository.open(store);
            CountDownLatch stop = new CountDownLatch(1);
            try (RepoServer server = RepoServer.start(store, SiteOptions.of(repo.config()), CommandContext.of(spec).cache(), CommandContext.of(spec).duckDb(), bind, port)) {
                PrintWriter out = spec.commandLine().getOut();
                out.println("Serving " + store.root() + " read-only at " + server.url() + " (Ctrl-C to stop)");
                out.println(attachHint(server.url()));
                out.println(restCatalogHint(server.url()));
                out.flush();
                Runtime.getRuntime().addShutdownHook(new Thread(stop::countDown));
                stop.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * The line serve prints for readers: the {@code fdl attach} that reads a version's refs, catalog
     * and data from {@code url}, so it works from any folder.
     */
    static String attachHint(java.net.URI url) {
        return "Attach a version: fdl attach <ref> --repo " + ShellQuote.word(url.toString());
    }

    /**
     * The line serve prints for Iceberg readers: its read-only REST catalog (docs/iceberg.md,
     * "REST catalog"), as the {@code spark-sql} command that opens it as catalog {@code fdl}.
     */
    static String restCatalogHint(java.net.URI url) {
        return "Iceberg REST catalog at " + url + " (the branches and tags whose versions have Iceberg metadata: fdl iceberg --all writes the rest): spark-sql --packages "
                + dev.fdl.iceberg.IcebergReaders.SPARK_RUNTIME + " --conf " + dev.fdl.iceberg.IcebergReaders.SPARK_CATALOG
                + "=org.apache.iceberg.spark.SparkCatalog --conf " + dev.fdl.iceberg.IcebergReaders.SPARK_CATALOG + ".type=rest --conf "
                + dev.fdl.iceberg.IcebergReaders.SPARK_CATALOG + ".uri=" + ShellQuote.word(url.toString());
    }
}
