package dev.fdl.store;

import java.nio.charset.StandardCharsets;

/** UTF-8 bytes of a string, for short test bodies. */
final class ContractBytes {
    private ContractBytes() {}

    static byte[] of(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
