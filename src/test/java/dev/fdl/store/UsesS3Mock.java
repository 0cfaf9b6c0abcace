package dev.fdl.store;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a test class that talks to {@link S3MockServer#shared()}: when a test run holds one,
 * {@link S3MockPrestart} starts S3Mock in the background as the run begins, so that its start
 * (a Spring Boot application: seconds of CPU) overlaps with the other tests instead of stalling
 * the first S3 test.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface UsesS3Mock {}
