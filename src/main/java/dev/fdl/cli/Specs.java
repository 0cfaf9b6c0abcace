package dev.fdl.cli;

import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * Picocli models built in code (picocli's programmatic API) for fdl itself and the everyday
 * commands: log, status, refs, show, branch and tag (fast to start, like git). From
 * annotations picocli builds a model by reflection and reads each annotation through a dynamic
 * proxy, which JDK 17's class-data archive cannot hold: that was about a third of the CPU
 * {@code fdl log} spent before reading its first file. A model built here prints the same help and
 * parses the same way as the annotations did ({@code LightCommandsHelpTest} pins the help text).
 * Commands read their values from picocli's parse result.
 */
final class Specs {
    private Specs() {}

    /**
     * The factory fdl's command lines are built with: picocli's default one, made only when a
     * command needs it (an annotated command, a converter named by class). Making it looks for
     * Groovy's {@code Closure} class, and that lookup, which fails, opens every jar on the class
     * path: tens of milliseconds of every start. An anonymous class, not a lambda, for
     * the reason {@code Main.Failures} gives.
     */
    static final CommandLine.IFactory FACTORY = new CommandLine.IFactory() {
        /** Made on the first call, then reused: each one made repeats the lookup. */
        private CommandLine.IFactory made;

        @Override
        public synchronized <K> K create(Class<K> type) throws Exception {
            if (made == null) made = CommandLine.defaultFactory();
            return made.create(type);
        }
    };

    /**
     * The model of command {@code name}, run by {@code command} (a {@link Runnable} or
     * {@link java.util.concurrent.Callable}), with {@code -h, --help} and {@code -V, --version} as
     * picocli's {@code mixinStandardHelpOptions} adds them (that mixin is itself read by reflection).
     */
    static CommandSpec command(String name, Object command, String... description) {
        CommandSpec spec = CommandSpec.wrapWithoutInspection(command, FACTORY).name(name);
        spec.usageMessage().description(description);
        spec.addOption(OptionSpec.builder("-h", "--help").usageHelp(true).type(boolean.class)
                .description("Show this help message and exit.").build());
        spec.addOption(OptionSpec.builder("-V", "--version").versionHelp(true).type(boolean.class)
                .description("Print version information and exit.").build());
        return spec;
    }

    /** An option without a value ({@code --json}); a command asks the parse result whether it was given. */
    static OptionSpec flag(String description, String... names) {
        return OptionSpec.builder(names).type(boolean.class).description(description).build();
    }

    /** An option taking one value of {@code type}, shown as {@code paramLabel} in the help. */
    static OptionSpec option(Class<?> type, String paramLabel, String description, String... names) {
        return OptionSpec.builder(names).type(type).paramLabel(paramLabel).description(description).build();
    }

    /** An optional positional text parameter at {@code index}, shown as {@code [paramLabel]}. */
    static PositionalParamSpec optionalPositional(int index, String paramLabel, String... description) {
        return PositionalParamSpec.builder().index(String.valueOf(index)).arity("0..1").type(String.class)
                .paramLabel(paramLabel).description(description).build();
    }
}
