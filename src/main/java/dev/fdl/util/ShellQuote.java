package dev.fdl.util;

/**
 * Quoting for the words of the commands fdl suggests in hints and errors ({@code fdl checkout -b <name>},
 * {@code fdl init <root>}, …), so that a user value with spaces, quotes or {@code $} survives a
 * copy and paste into a POSIX shell. The rule of Python's {@code shlex.quote}: a word made only of
 * letters, digits and {@code @%+=:,./_-} is left as it is; any other, and the empty word, is put
 * in single quotes, each single quote inside written {@code '\''}. The one place fdl quotes for a shell.
 */
public final class ShellQuote {
    private ShellQuote() {}

    /** {@code word} as one POSIX shell word: {@code my repo} becomes {@code 'my repo'}, {@code it's} {@code 'it'\''s'}. */
    public static String word(String word) {
        if (word.isEmpty()) return "''";
        for (int i = 0; i < word.length(); i++) {
            if (!safe(word.charAt(i))) return '\'' + word.replace("'", "'\\''") + '\'';
        }
        return word;
    }

    /** {@link #word} of {@code value}'s text (a path, a ref name, a URL). */
    public static String word(Object value) {
        return word(String.valueOf(value));
    }

    /** A command line of {@code words}, each quoted by {@link #word} and joined by spaces, to be pasted as printed. */
    public static String command(java.util.List<String> words) {
        StringBuilder b = new StringBuilder();
        for (String w : words) {
            if (b.length() > 0) b.append(' ');
            b.append(word(w));
        }
        return b.toString();
    }

    private static boolean safe(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || "@%+=:,./_-".indexOf(c) >= 0;
    }
}
