package dev.fdl.cli;

import dev.fdl.ducklake.read.QueryResult;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** DOUBLE and FLOAT values print as DuckDB's own cast to VARCHAR prints them (its CLI's text), not as Java's toString. */
class FloatTextTest {
    private static String printed(Object v, String type) {
        StringWriter sw = new StringWriter();
        List<Object> row = new ArrayList<>();
        row.add(v);
        ResultPrinter.csv(new PrintWriter(sw), new QueryResult(List.of("v"), List.of(type), List.of(row)));
        return sw.toString().lines().skip(1).findFirst().orElseThrow();
    }

    @Test
    void roundedSumPrintsInPlainDigits() {
        assertThat(printed(5.003626571E7, "DOUBLE")).isEqualTo("50036265.71");
        assertThat(printed(3.0, "DOUBLE")).isEqualTo("3.0");
    }

    @Test
    void floatsOfFewDigitsPrintAsDuckDbPrintsThem() {
        assertThat(printed(0.1f, "FLOAT")).isEqualTo("0.1");
        assertThat(printed(1.5e10f, "FLOAT")).isEqualTo("15000000000.0");
        assertThat(printed(3.4e38f, "FLOAT")).isEqualTo("3.4e+38");
        assertThat(printed(470026.625f, "FLOAT")).isEqualTo("470026.625");
    }

    @Test
    void everyValueMatchesDuckDbsCast() throws Exception {
        Random random = new Random(37);
        List<String> literals = new ArrayList<>(List.of("50036265.71", "1e15", "1e16", "123456789012345678", "1e-5", "0.0001", "-2.5",
                "1e300", "4.9e-324", "1.7976931348623157e308", "2e23", "0.1", "100.0", "0.0"));
        for (int i = 0; i < 300; i++) {
            double d = Double.longBitsToDouble(random.nextLong());
            if (Double.isFinite(d)) literals.add(Double.toString(d));
            literals.add(Double.toString(random.nextDouble() * Math.pow(10, random.nextInt(40) - 20)));
            literals.add(Long.toString(random.nextInt(1_000_000)) + "." + random.nextInt(100));
        }
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
            for (String lit : literals) {
                for (String type : List.of("DOUBLE")) {
                    try (ResultSet rs = st.executeQuery("SELECT CAST(" + lit + " AS " + type + ") AS v, CAST(CAST(" + lit + " AS " + type
                            + ") AS VARCHAR)")) {
                        rs.next();
                        assertThat(printed(rs.getObject(1), type)).as(lit + " as " + type).isEqualTo(rs.getString(2));
                    }
                }
            }
        }
    }
}
