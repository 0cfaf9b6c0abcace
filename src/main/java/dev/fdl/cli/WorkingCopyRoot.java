package dev.fdl.cli;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** Finds the repository root recorded in the working copy around a folder (walking up, like git). */
final class WorkingCopyRoot {
    private WorkingCopyRoot() {}

    static Optional<String> find(Path from) {
        for (Path p = from; p != null; p = p.getParent()) {
            Path state = p.resolve(".fdl").resolve("state.json");
            if (Files.isRegularFile(state)) {
                try {
                    JsonNode n = dev.fdl.util.JsonRead.tree(dev.fdl.util.SmallFiles.readAll(state));
                    JsonNode root = n == null ? null : n.get("root");
                    if (root != null && root.isTextual()) return Optional.of(root.asText());
                } catch (IOException e) {
                    return Optional.empty();
                }
            }
        }
        return Optional.empty();
    }
}
