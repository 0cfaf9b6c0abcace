package dev.fdl.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import static org.assertj.core.api.Assertions.assertThat;

/** Main registers only the subcommand a run names (issue 17: quick start), every one otherwise. */
class MainWiringTest {
    @Test
    void theSubcommandIsTheFirstArgumentThatIsNotAnOptionOfFdl() {
        assertThat(Main.subcommandNamed("log", "--oneline")).isEqualTo(LogCommand.class);
        assertThat(Main.subcommandNamed("-C", "status", "log")).isEqualTo(LogCommand.class);
        assertThat(Main.subcommandNamed("-C/tmp", "status")).isEqualTo(StatusCommand.class);
        assertThat(Main.subcommandNamed("-C=/tmp", "refs")).isEqualTo(RefsCommand.class);
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
    void everySubcommandIsReachableByItsName() {
        for (Class<?> c : Main.SUBCOMMANDS)
            if (c != CommandLine.HelpCommand.class)
                assertThat(Main.subcommandNamed(c.getAnnotation(CommandLine.Command.class).name())).isEqualTo(c);
    }
}
