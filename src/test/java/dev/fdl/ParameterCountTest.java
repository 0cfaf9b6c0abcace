package dev.fdl;

import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.TreePathScanner;
import org.junit.jupiter.api.Test;

import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * No method or constructor of src/main takes more than {@value #MAX} parameters (records'
 * canonical constructors excepted): a longer list is a request that wants to be a value (a record
 * or builder). Read with javac's own parser, so that the count is the compiler's.
 */
class ParameterCountTest {
    static final int MAX = 7;

    @Test
    void noMethodTakesMoreThanSevenParameters() throws IOException {
        assertThat(longParameterLists(Path.of("src", "main", "java"), MAX)).isEmpty();
    }

    @Test
    void theCheckFindsALongListAndSkipsRecords(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("A.java"), """
                class A {
                    void few(int a, int b) {}
                    void many(int a, int b, int c, int d, int e, int f, int g, int h) {}
                    record R(int a, int b, int c, int d, int e, int f, int g, int h) {
                        R(int a, int b, int c, int d, int e, int f, int g, int h) { this.a = a; this.b = b; this.c = c;
                            this.d = d; this.e = e; this.f = f; this.g = g; this.h = h; }
                    }
                }
                """);
        assertThat(longParameterLists(dir, MAX)).containsExactly("A.many: 8 parameters (A.java)");
    }

    /** Methods and constructors under {@code root} with more than {@code max} parameters, records' constructors excepted. */
    static List<String> longParameterLists(Path root, int max) throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.walk(root)) {
            files = s.filter(p -> p.toString().endsWith(".java")).toList();
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        List<String> found = new ArrayList<>();
        try (StandardJavaFileManager fm = javac.getStandardFileManager(null, null, null)) {
            JavacTask task = (JavacTask) javac.getTask(null, fm, null, List.of("-proc:none"), null, fm.getJavaFileObjectsFromPaths(files));
            for (CompilationUnitTree unit : task.parse()) {
                new TreePathScanner<Void, Void>() {
                    @Override
                    public Void visitMethod(MethodTree m, Void v) {
                        ClassTree owner = (ClassTree) getCurrentPath().getParentPath().getLeaf();
                        int n = m.getParameters().size();
                        if (n > max && owner.getKind() != Tree.Kind.RECORD) {
                            found.add(owner.getSimpleName() + "." + m.getName() + ": " + n + " parameters ("
                                    + Path.of(unit.getSourceFile().toUri()).getFileName() + ")");
                        }
                        return super.visitMethod(m, v);
                    }
                }.scan(unit, null);
            }
        }
        return found;
    }
}
