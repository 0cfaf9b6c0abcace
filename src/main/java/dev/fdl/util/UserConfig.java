package dev.fdl.util;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fdl.FdlException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * The per-user settings of {@code fdl config} (README, "fdl config"): a JSON object of flat keys in
 * one file of this machine's user ({@code $FDL_CONFIG}, else {@code $XDG_CONFIG_HOME/fdl/config.json},
 * else {@code ~/.config/fdl/config.json}; the caller decides which). Only the keys of {@link #KEYS}
 * are accepted, each with its value's shape; the file is replaced atomically.
 */
public final class UserConfig {
    /** The known keys and what each holds. */
    public static final Map<String, String> KEYS = Map.of(
            "hooks.trust", "true or false: run the pre-commit hook a repository's fdl.json names (default false)",
            "signing.key", "an SSH private key file (or its .pub, for a key an SSH agent holds): fdl commit signs every version with it "
                    + "(docs/signing.md; as git's user.signingkey)");
    /** The keys whose value is a string rather than true or false. */
    private static final java.util.Set<String> STRING_KEYS = java.util.Set.of("signing.key");

    private final Path file;

    public UserConfig(Path file) {
        this.file = file;
    }

    /** The file. */
    public Path file() {
        return file;
    }

    /** The value of {@code key}, when set. */
    public Optional<String> get(String key) {
        JsonNode v = read().get(known(key));
        return v == null || v.isNull() ? Optional.empty() : Optional.of(v.asText());
    }

    /** True when {@code key} is set to {@code true}. */
    public boolean isTrue(String key) {
        return get(key).map("true"::equals).orElse(false);
    }

    /**
     * Sets {@code key} (null removes it).
     *
     * @throws FdlException usage error for an unknown key or a value of the wrong shape; exit 1 when the file cannot be written
     */
    public void set(String key, String value) {
        known(key);
        boolean text = STRING_KEYS.contains(key);
        if (value != null && text && value.isBlank()) throw FdlException.usage("fdl config " + key + " takes a file name, not an empty value");
        if (value != null && !text && !value.equals("true") && !value.equals("false"))
            throw FdlException.usage("fdl config " + key + " takes true or false, not '" + value + "'");
        ObjectNode o = read();
        if (value == null) o.remove(key);
        else if (text) o.put(key, value);
        else o.put(key, Boolean.parseBoolean(value));
        try {
            Files.createDirectories(file.getParent());
        } catch (IOException e) {
            throw new FdlException("cannot create " + file.getParent() + ": " + e.getMessage());
        }
        AtomicFile.write(file, Json.bytes(o), () -> {});
    }

    private static String known(String key) {
        if (!KEYS.containsKey(key))
            throw FdlException.usage("unknown setting '" + key + "'; fdl config knows: " + String.join(", ", KEYS.keySet()));
        return key;
    }

    private ObjectNode read() {
        if (!Files.isRegularFile(file)) return Json.MAPPER.createObjectNode();
        try {
            return JsonRead.parseUserObject(Files.readAllBytes(file), file.toString());
        } catch (IOException e) {
            throw new FdlException("cannot read " + file + ": " + e.getMessage());
        }
    }
}
