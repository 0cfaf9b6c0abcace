package dev.fdl.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

import static org.assertj.core.api.Assertions.assertThat;

/** Main registers only the subcommand a run names (quick start), every one otherwise. */
class MainWiringTest {
    private static String named(String... args) {
        Main.Subcommand c = Main.subcommandNamed(args);
        return c == null ? null : c.name();
    }

    @Test
    void theSubcommandIsTheFirstArgumentThatIsNotAnOptionOfFdl() {
        assertThat(named("log", "--oneline")).isEqualTo("log");
        assertThat(named("-C", "status", "log")).isEqualTo("log");
        assertThat(named("-C/tmp", "status")).isEqualTo("status");
        assertThat(named("-C=/tmp", "refs")).isEqualTo("refs");
        assertThat(named("commit", "-m", "log")).isEqualTo("commit");
    }

    @Test
    void withoutAKnownSubcommandEveryOneIsRegistered() {
        assertThat(Main.subcommandNamed()).isNull();
        assertThat(Main.subcommandNamed("--version")).isNull();
        assertThat(Main.subcommandNamed("help", "log")).isNull();
        assertThat(Main.subcommandNamed("lgo")).isNull();
        assertThat(Main.subcommandNamed("--", "log")).isNull();
        assertThat(Main.commandLine().getSubcommands().keySet()).contains("init", "log", "status", "help")
                .hasSize(Main.SUBCOMMANDS.size());
    }

    @Test
    void everySubcommandIsReachableByItsNameAndRegisteredUnderIt() {
        for (Main.Subcommand c : Main.SUBCOMMANDS) {
            if (c.annotated() == CommandLine.HelpCommand.class) continue;
            assertThat(Main.subcommandNamed(c.name())).isSameAs(c);
            assertThat(Main.commandLineFor(c.name()).getSubcommands().keySet()).containsExactly(c.name());
        }
    }

    @Test
    void aModelBuiltInCodeCarriesTheNameItIsListedUnder() {
        for (Main.Subcommand c : Main.SUBCOMMANDS)
            if (c.built() != null) assertThat(((CommandSpec) c.model()).name()).isEqualTo(c.name());
    }
}
