package dev.fdl.store;

import dev.fdl.FdlException;

import java.util.Locale;

/**
 * Where an S3 root lives: a bucket and a key prefix that is empty or ends in {@code /}
 * ({@code s3://bucket/prefix/} names bucket {@code bucket}, prefix {@code prefix/}).
 *
 * @param bucket the bucket name (S3 bucket naming rules, checked loosely: 3 to 63 characters of
 *               lower-case letters, digits, dots and hyphens)
 * @param prefix the key prefix of the repository root, empty or ending in {@code /}
 */
public record S3Location(String bucket, String prefix) {
    public S3Location {
        if (bucket == null || !bucket.matches("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]"))
            throw FdlException.usage("invalid S3 bucket name '" + bucket + "': 3 to 63 lower-case letters, digits, '.' or '-'");
        if (prefix == null) prefix = "";
        if (!prefix.isEmpty() && !prefix.endsWith("/")) prefix = prefix + "/";
        if (!prefix.isEmpty()) {
            try {
                Keys.check(prefix.substring(0, prefix.length() - 1));
            } catch (IllegalArgumentException e) {
                throw FdlException.usage("invalid S3 root prefix '" + prefix + "': " + e.getMessage());
            }
        }
    }

    /**
     * Parses {@code s3://bucket[/prefix[/]]}.
     *
     * @throws FdlException exit 2 for anything else
     */
    public static S3Location parse(String root) {
        if (root == null || !root.toLowerCase(Locale.ROOT).startsWith("s3://"))
            throw FdlException.usage("not an s3:// root: '" + root + "'; expected s3://bucket/prefix/");
        String rest = root.substring("s3://".length());
        int slash = rest.indexOf('/');
        String bucket = slash < 0 ? rest : rest.substring(0, slash);
        String prefix = slash < 0 ? "" : rest.substring(slash + 1);
        if (bucket.isEmpty()) throw FdlException.usage("no bucket in '" + root + "'; expected s3://bucket/prefix/");
        if (bucket.contains("@") || bucket.contains(":"))
            throw FdlException.usage("invalid S3 root: credentials and ports do not belong in an s3:// root; "
                    + "use the AWS credential chain and AWS_ENDPOINT_URL");
        return new S3Location(bucket, prefix);
    }

    /** The root as users write it: {@code s3://bucket/prefix/}. */
    public String root() {
        return "s3://" + bucket + "/" + prefix;
    }

    /** The object key in the bucket for a repository key. */
    public String objectKey(String key) {
        return prefix + key;
    }
}
