package dev.fdl.cli;

import picocli.CommandLine;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Renders the {@code --help} of fdl and of every subcommand (nested ones included), as the
 * command line {@link Main#commandLine()} builds them (annotated commands and those built in code
 * by {@link Specs}), into {@code docs/cli.md} between {@link #BEGIN} and {@link #END}. The text
 * outside the markers is written by hand and left as it is. {@code CliReferenceTest} fails when
 * the file differs from what this renders; {@link #REGENERATE} rewrites it.
 */
public final class CliReference {
    /** The file the reference lives in, relative to the project folder. */
    static final Path FILE = Path.of("docs", "cli.md");
    /** The line that opens the generated part (its whole line). */
    static final String BEGIN = "<!-- BEGIN GENERATED: fdl --help of every command (CliReference); do not edit by hand -->";
    /** The line that closes it. */
    static final String END = "<!-- END GENERATED -->";
    /** The one command that rewrites the generated part, run in the project folder. */
    static final String REGENERATE =
            "mvn -q -o test-compile exec:java -Dexec.classpathScope=test -Dexec.mainClass=dev.fdl.cli.CliReference";

    private CliReference() {}

    /** Rewrites the generated part of {@code docs/cli.md} (or of the file named by the first argument). */
    public static void main(String[] args) throws IOException {
        Path file = args.length > 0 ? Path.of(args[0]) : FILE;
        String text = Files.readString(file, StandardCharsets.UTF_8);
        Files.writeString(file, withGenerated(text), StandardCharsets.UTF_8);
        System.out.println("wrote " + file);
    }

    /**
     * {@code text} with what lies between its {@link #BEGIN} and {@link #END} lines replaced by
     * {@link #generated()}.
     *
     * @throws IllegalArgumentException when either marker line is missing or they are out of order
     */
    static String withGenerated(String text) {
        int begin = text.indexOf(BEGIN + "\n");
        int end = text.indexOf(END);
        if (begin < 0 || end < begin)
            throw new IllegalArgumentException(FILE + " needs the lines\n" + BEGIN + "\n" + END
                    + "\naround its generated part");
        return text.substring(0, begin + BEGIN.length() + 1) + generated() + text.substring(end);
    }

    /** Every command's help, fdl's own first, then each subcommand in {@code fdl --help}'s order, as Markdown. */
    static String generated() {
        StringBuilder md = new StringBuilder();
        render(Main.commandLine(), "fdl", md, new IdentityHashMap<>());
        return md.toString();
    }

    private static void render(CommandLine cl, String name, StringBuilder md, Map<CommandLine, Boolean> seen) {
        if (seen.put(cl, true) != null) return; // aliases name one command twice
        md.append("\n### `").append(name).append("`\n\n```\n")
          .append(cl.getUsageMessage(CommandLine.Help.Ansi.OFF).stripTrailing()).append("\n```\n");
        for (Map.Entry<String, CommandLine> sub : cl.getSubcommands().entrySet())
            if (!(sub.getValue().getCommandSpec().userObject() instanceof CommandLine.HelpCommand))
                render(sub.getValue(), name + " " + sub.getKey(), md, seen);
        if (name.equals("fdl")) md.append('\n');
    }
}
