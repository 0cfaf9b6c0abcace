package dev.fdl.cli;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/cli.md's command reference is what the commands' {@code --help} prints: a command or an
 * option added, renamed or reworded without regenerating the page fails here.
 */
class CliReferenceTest {
    @Test
    void docsCliMdHoldsEveryCommandsHelpAsTheCommandsPrintIt() throws IOException {
        String text = Files.readString(CliReference.FILE, StandardCharsets.UTF_8);
        assertThat(text)
                .as("docs/cli.md is out of date with the commands' --help; regenerate it with:\n  "
                        + CliReference.REGENERATE + "\n")
                .isEqualTo(CliReference.withGenerated(text));
    }

    @Test
    void theReferenceNamesEveryCommandFdlsHelpLists() {
        String generated = CliReference.generated();
        for (Main.Subcommand c : Main.SUBCOMMANDS)
            if (!c.name().equals("help"))
                assertThat(generated).as(c.name()).contains("\n### `fdl " + c.name() + "`\n");
        assertThat(generated).contains("Usage: fdl log ").contains("Usage: fdl import ");
    }
}
