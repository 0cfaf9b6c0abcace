package dev.fdl.cli;

import dev.fdl.util.UserConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.util.TreeMap;

/** {@code fdl config}: this user's settings on this machine (a JSON file, {@link CommandContext#userConfig()}). */
@Command(name = "config", mixinStandardHelpOptions = true,
        description = {"Show or set a setting of this user on this machine (not of a repository).",
                "Keys: hooks.trust (true: run the pre-commit hook a repository's fdl.json names). Without arguments, lists the settings and the file."})
final class ConfigCommand implements Runnable {
    @Spec CommandSpec spec;
    @Parameters(index = "0", arity = "0..1", paramLabel = "<key>") String key;
    @Parameters(index = "1", arity = "0..1", paramLabel = "<value>") String value;
    @Option(names = "--unset", description = "Remove the setting.") boolean unset;

    @Override
    public void run() {
        UserConfig config = CommandContext.of(spec).userConfig();
        PrintWriter out = spec.commandLine().getOut();
        if (key == null) {
            Out.context(spec.commandLine().getErr(), "settings in " + config.file());
            for (String k : new TreeMap<>(UserConfig.KEYS).keySet()) out.println(k + "=" + config.get(k).orElse(""));
        } else if (unset) {
            if (value != null) throw dev.fdl.FdlException.usage("give either a value or --unset, not both");
            config.set(key, null);
        } else if (value == null) {
            out.println(config.get(key).orElse(""));
        } else {
            config.set(key, "signing.key".equals(key) ? signingKey(value) : value);
        }
        out.flush();
    }

    /**
     * A signing key as stored: {@code ~/…} as given (it means the home folder wherever fdl runs),
     * any other path made absolute from the working folder, so every later commit finds the same file.
     *
     * @throws dev.fdl.FdlException usage error when the file does not exist
     */
    private String signingKey(String value) {
        java.nio.file.Path file = CommandContext.of(spec).keyFile(value);
        if (!java.nio.file.Files.isRegularFile(file))
            throw dev.fdl.FdlException.usage("the signing key " + file + " does not exist; name an SSH private key file (or its .pub when an SSH agent holds it)");
        return value.startsWith("~/") ? value : file.toString();
    }
}
