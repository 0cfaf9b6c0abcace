package dev.fdl.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A mistyped subcommand or option gets picocli's suggestion, for commands declared with
 * annotations (import, commit) and those whose model {@code Specs} builds in code (log, status).
 */
class DidYouMeanCliTest {
    @TempDir Path dir;

    @Test
    void aMistypedSubcommandGetsASuggestion() {
        Cli.Result r = Cli.in(dir, "comit", "-m", "x");
        assertThat(r.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("Did you mean").contains("commit");
        assertThat(Cli.in(dir, "stauts").err()).contains("Did you mean").contains("status");
    }

    @Test
    void aMistypedOptionGetsASuggestion() {
        Cli.Result annotated = Cli.in(dir, "commit", "--mesage", "x");
        assertThat(annotated.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(annotated.err()).contains("Did you mean").contains("--message");
        Cli.Result built = Cli.in(dir, "log", "--onelin");
        assertThat(built.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(built.err()).contains("Did you mean").contains("--oneline");
    }
}
