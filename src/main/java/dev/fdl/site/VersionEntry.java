package dev.fdl.site;

import dev.fdl.repo.ExpiredInfo;
import dev.fdl.repo.VersionInfo;

/** One version as the site shows it: its version.json and expiry (null while live). */
record VersionEntry(VersionInfo version, ExpiredInfo expired) {
    String id() {
        return version.id();
    }
}
