package dev.fdl.store;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Records every store call as {@code "op key"}, in order. */
public class RecordingStore extends ForwardingStore {
    public final List<String> calls = Collections.synchronizedList(new ArrayList<>());

    public RecordingStore(ObjectStore delegate) {
        super(delegate);
    }

    @Override
    protected void before(String op, String key) {
        calls.add(op + " " + key);
    }

    /** Only the writes and deletes. */
    public List<String> mutations() {
        return calls.stream().filter(c -> c.startsWith("put") || c.startsWith("delete")).toList();
    }
}
