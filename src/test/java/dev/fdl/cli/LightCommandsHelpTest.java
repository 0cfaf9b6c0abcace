package dev.fdl.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The picocli models of fdl itself and of the everyday commands are built in code (no
 * annotation reflection at start); their help and their parse errors must stay those the
 * annotations gave. The expected help texts in {@code cli-help/} were printed by the annotated
 * commands. Both command lines are checked: the one a run builds (only the named subcommand) and
 * the one with every subcommand.
 */
class LightCommandsHelpTest {
    /** Runs {@code args} on the command line {@link Main#run} would build for them. */
    private static Cli.Result runAsMain(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = Main.commandLineFor(args);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int exit = cl.execute(args);
        return new Cli.Result(exit, out.toString(), err.toString());
    }

    private static String expectedHelp(String command) throws IOException {
        try (InputStream in = LightCommandsHelpTest.class.getResourceAsStream("/cli-help/" + command + ".txt")) {
            assertThat(in).as(command).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"log", "status", "refs", "show", "branch", "tag"})
    void theHelpOfAnEverydayCommandIsTheOneItsAnnotationsGave(String command) throws IOException {
        Cli.Result expected = new Cli.Result(0, expectedHelp(command), "");
        assertThat(runAsMain(command, "--help")).isEqualTo(expected);
        assertThat(runAsMain(command, "-h")).isEqualTo(expected);
        assertThat(Cli.run(command, "--help")).isEqualTo(expected);
        assertThat(Cli.run("help", command)).isEqualTo(expected);
        assertThat(runAsMain(command, "-V")).isEqualTo(new Cli.Result(0, "", "")); // a subcommand has no version of its own
    }

    @Test
    void fdlsOwnHelpListsEverySubcommandAsBefore() throws IOException {
        Cli.Result expected = new Cli.Result(0, expectedHelp("fdl"), "");
        assertThat(runAsMain("--help")).isEqualTo(expected);
        assertThat(Cli.run("-h")).isEqualTo(expected);
        assertThat(Cli.run("help")).isEqualTo(expected);
        assertThat(runAsMain()).isEqualTo(new Cli.Result(2, "", expectedHelp("fdl")));
        assertThat(runAsMain("--version").out()).startsWith("fdl 0.1.0 (repository format ");
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "2|bogus|fdl: Unmatched argument at index 0: 'bogus'\nDid you mean: fdl log or fdl status?|fdl",
            "2|-C /nonexistent-fdl-folder log|fdl: -C /nonexistent-fdl-folder: no such folder|fdl",
            "2|-C|fdl: Missing required parameter for option '-C' (<path>)|fdl",
            "2|log --bogus|fdl: Unknown option: '--bogus'|fdl log",
            "2|log -n x|fdl: 'x' is not an int|fdl log",
            "2|log -n|fdl: Missing required parameter for option '--max-count' (N)|fdl log",
            // log a b: fdl's own usage error since log takes -<N> and <a>..<b> (GitFormsCliTest)
            "2|log --repo|fdl: Missing required parameter for option '--repo' (<root>)|fdl log",
            "2|status x|fdl: Unmatched argument at index 1: 'x'|fdl status",
            "2|refs x|fdl: Unmatched argument at index 1: 'x'|fdl refs",
            "2|show a b|fdl: Unmatched argument at index 2: 'b'|fdl show",
            "2|branch a b c|fdl: Unmatched argument at index 3: 'c'|fdl branch",
            "2|tag --json --json|fdl: option '--json' should be specified only once|fdl tag",
    })
    void aBadCommandLineIsAUsageErrorWordedAsBefore(String line) {
        String[] f = line.split("\\|");
        String[] args = f[1].split(" ");
        Cli.Result expected = new Cli.Result(Integer.parseInt(f[0]), "",
                f[2] + "\nTry '" + f[3] + " --help' for more information.\n");
        assertThat(runAsMain(args)).as(f[1]).isEqualTo(expected);
        assertThat(Cli.run(args)).as(f[1]).isEqualTo(expected);
    }
}
