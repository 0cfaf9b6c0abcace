package dev.fdl.util;

import java.net.URI;
import java.net.URISyntaxException;

/** Locations as they may be shown to users: never the credentials a URL may carry. */
public final class Redacted {
    private Redacted() {}

    /**
     * {@code location} without the user info and query of a URL ({@code https://user:token@host/p?sig=…}
     * gives {@code https://host/p}); a location that is no URL with a host (a folder) as it is.
     */
    public static String location(String location) {
        if (location == null || !location.contains("://")) return location;
        try {
            URI u = new URI(location);
            if (u.getHost() == null) return u.getScheme() + "://?";
            return u.getScheme() + "://" + u.getHost() + (u.getPort() >= 0 ? ":" + u.getPort() : "")
                    + (u.getRawPath() == null ? "" : u.getRawPath());
        } catch (URISyntaxException e) {
            return location.substring(0, location.indexOf("://") + 3) + "?";
        }
    }
}
