package dev.fdl.store;

import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Starts S3Mock in the background when a test run begins and holds a class marked
 * {@link UsesS3Mock}; a run without one (say {@code -Dtest=GcTest}) starts nothing. Registered
 * through {@code META-INF/services/org.junit.platform.launcher.TestExecutionListener}, which the
 * JUnit Platform reads under surefire and in IDEs alike.
 */
public final class S3MockPrestart implements TestExecutionListener {
    @Override
    public void testPlanExecutionStarted(TestPlan plan) {
        Deque<TestIdentifier> todo = new ArrayDeque<>(plan.getRoots());
        while (!todo.isEmpty()) {
            TestIdentifier id = todo.pop();
            if (id.getSource().orElse(null) instanceof ClassSource c && usesS3Mock(c)) {
                S3MockServer.prestart();
                return;
            }
            todo.addAll(plan.getChildren(id));
        }
    }

    private static boolean usesS3Mock(ClassSource source) {
        try {
            return source.getJavaClass().isAnnotationPresent(UsesS3Mock.class);
        } catch (RuntimeException e) {
            return false; // a class the platform cannot load fails in its own test, not here
        }
    }
}
