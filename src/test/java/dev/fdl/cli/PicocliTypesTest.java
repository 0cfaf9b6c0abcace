package dev.fdl.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The launcher starts fdl with {@code picocli.converters.excludes} leaving out picocli's built-in
 * converters of java.sql and java.time types (a class initialized and a reflective lookup each,
 * at every start). So no option or parameter of any fdl command may rely on them: one of such a
 * type (or an array or collection of it) names its own converter, as {@code --grace} names
 * {@link DurationConverter}. The excluded patterns are read from the launcher itself.
 */
class PicocliTypesTest {
    @Test
    void optionsOfExcludedTypesNameTheirOwnConverter() throws Exception {
        List<Pattern> excluded = launcherExclusions();
        assertThat(excluded).as("patterns of the launcher's picocli.converters.excludes").isNotEmpty();
        List<String> relying = new ArrayList<>();
        List<String> typed = new ArrayList<>();
        visit(Main.commandLine().getCommandSpec(), excluded, relying, typed);
        assertThat(typed).as("options of an excluded type (the check has something to check)").isNotEmpty();
        assertThat(relying).as("options that need a converter the launcher leaves out").isEmpty();
    }

    private static void visit(CommandSpec spec, List<Pattern> excluded, List<String> relying, List<String> typed) {
        for (ArgSpec a : spec.args()) {
            List<Class<?>> types = new ArrayList<>(List.of(a.type()));
            if (a.auxiliaryTypes() != null) types.addAll(List.of(a.auxiliaryTypes()));
            for (Class<?> t : types) {
                Class<?> c = t.isArray() ? t.getComponentType() : t;
                if (excluded.stream().noneMatch(p -> p.matcher(c.getName()).matches())) continue;
                String name = spec.qualifiedName() + " " + (a.isOption() ? ((CommandLine.Model.OptionSpec) a).longestName() : a.paramLabel());
                typed.add(name);
                if (a.converters() == null || a.converters().length == 0) relying.add(name + " (" + c.getName() + ")");
            }
        }
        for (CommandLine sub : spec.subcommands().values()) visit(sub.getCommandSpec(), excluded, relying, typed);
    }

    /** The regular expressions the launcher passes as {@code -Dpicocli.converters.excludes=…}, as picocli splits them. */
    private static List<Pattern> launcherExclusions() throws Exception {
        String script = java.nio.file.Files.readString(java.nio.file.Path.of("fdl"));
        java.util.regex.Matcher m = Pattern.compile("-Dpicocli\\.converters\\.excludes=([^'\"\\s]+)").matcher(script);
        List<Pattern> out = new ArrayList<>();
        if (m.find()) for (String p : m.group(1).split(",")) out.add(Pattern.compile(p));
        return out;
    }
}
