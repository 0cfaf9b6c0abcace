package dev.fdl.ducklake;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * The row count and checksum of the fixtures' expected.json (fixtures README): MD5 of the rows
 * rendered as {@code CAST(row AS VARCHAR)}, sorted, joined with a newline.
 *
 * <p>The fixtures were rendered by DuckDB 1.5 and by a DuckDB 2.0 development build, which write a
 * text value inside a nested value unquoted when only a backslash sets it apart ({@code 'bl': \x00\xFF}).
 * Released DuckDB 2.0.0 quotes such a value and doubles the backslash ({@code 'bl': '\\x00\\xFF'}).
 * The rows are rendered by the DuckDB fdl runs on and turned back into the fixtures' rendering
 * here, so the recorded checksums stay the oracle; the rows are then sorted as DuckDB sorts
 * VARCHAR (by UTF-8 bytes).
 */
public final class FixtureChecksum {
    private FixtureChecksum() {}

    /** Count and checksum of {@code relation}'s rows. */
    public record Result(long rows, String md5) {}

    public static Result of(Statement st, String relation) throws SQLException {
        List<byte[]> rows = new ArrayList<>();
        try (ResultSet rs = st.executeQuery("SELECT CAST(x AS VARCHAR) FROM (SELECT * FROM " + relation + ") AS x")) {
            while (rs.next()) rows.add(fixtureRendering(rs.getString(1)).getBytes(StandardCharsets.UTF_8));
        }
        rows.sort(Arrays::compareUnsigned);
        try {
            MessageDigest md = MessageDigest.getInstance("MD5");
            for (int i = 0; i < rows.size(); i++) {
                if (i > 0) md.update((byte) '\n');
                md.update(rows.get(i));
            }
            return new Result(rows.size(), HexFormat.of().formatHex(md.digest()));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * A rendered row as DuckDB 1.5 renders it: every quoted value that holds an escaped backslash
     * but nothing else DuckDB quotes for ({@code , : { } [ ] ( ) = " '}, a space at either end,
     * empty, {@code NULL}) is written unquoted with its backslashes single.
     */
    public static String fixtureRendering(String rendered) {
        StringBuilder out = new StringBuilder(rendered.length());
        int i = 0;
        int n = rendered.length();
        while (i < n) {
            char c = rendered.charAt(i);
            if (c != '\'') {
                out.append(c);
                i++;
                continue;
            }
            int end = i + 1;
            StringBuilder content = new StringBuilder();
            boolean backslash = false;
            while (end < n && rendered.charAt(end) != '\'') {
                char d = rendered.charAt(end);
                if (d == '\\' && end + 1 < n) {
                    char e = rendered.charAt(end + 1);
                    backslash |= e == '\\';
                    content.append(e);
                    end += 2;
                } else {
                    content.append(d);
                    end++;
                }
            }
            String token = rendered.substring(i, Math.min(end + 1, n));
            out.append(backslash && !quotedByDuckDb15(content.toString()) ? content : token);
            i = end + 1;
        }
        return out.toString();
    }

    private static boolean quotedByDuckDb15(String s) {
        if (s.isEmpty() || s.equals("NULL") || s.charAt(0) == ' ' || s.charAt(s.length() - 1) == ' ') return true;
        for (int i = 0; i < s.length(); i++) {
            if (",:{}[]()=\"'".indexOf(s.charAt(i)) >= 0) return true;
        }
        return false;
    }
}
