package dev.fdl.util;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** {@link ShellQuote}: safe words stay as they are, others survive a POSIX shell unchanged. */
class ShellQuoteTest {
    private static final List<String> TRICKY = List.of("my repo", "it's", "a$b", "$(rm -rf x)", "`x`", "\"q\"", "a\\b",
            "tab\there", "new\nline", "*", "~", "!x", "a;b", "'", "''", "é", "{a,b}", "");

    @Test
    void safeWordsStayAsTheyAre() {
        for (String w : List.of("main", "/tmp/x/repo/", "s3://bucket/prefix/", "http://127.0.0.1:8321/", "v1.0", "a-b_c", "k@x", "a,b", "x=1%"))
            assertThat(ShellQuote.word(w)).isEqualTo(w);
    }

    @Test
    void otherWordsAreSingleQuoted() {
        assertThat(ShellQuote.word("my repo")).isEqualTo("'my repo'");
        assertThat(ShellQuote.word("it's")).isEqualTo("'it'\\''s'");
        assertThat(ShellQuote.word("a$b")).isEqualTo("'a$b'");
        assertThat(ShellQuote.word("")).isEqualTo("''");
    }

    @Test
    void aCommandIsItsWordsQuotedAndJoinedBySpaces() {
        assertThat(ShellQuote.command(List.of("fdl", "import", "my file.csv", "--table", "t"))).isEqualTo("fdl import 'my file.csv' --table t");
        assertThat(ShellQuote.command(List.of("fdl", ""))).isEqualTo("fdl ''");
        assertThat(ShellQuote.command(List.of())).isEmpty();
    }

    @Test
    void aPosixShellReadsEachQuotedWordBackUnchanged() throws Exception {
        Path sh = Path.of("/bin/sh");
        assumeTrue(Files.isExecutable(sh), "no /bin/sh to check the quoting against");
        StringBuilder script = new StringBuilder("for w in");
        for (String w : TRICKY) script.append(' ').append(ShellQuote.word(w));
        script.append("; do printf '%s\\0' \"$w\"; done");
        Process p = new ProcessBuilder(sh.toString(), "-c", script.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(out).isZero();
        assertThat(List.of(out.split("\0", -1)).subList(0, TRICKY.size())).isEqualTo(TRICKY);
    }
}
