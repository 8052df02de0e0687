package hongbao.core.reward;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeSet;

/**
 * The acknowledgement window of a consumer that processes a partition's messages concurrently: the
 * offset it may commit is the lowest one not yet done, never beyond. So a message with a small
 * offset still in flight holds the commit back even when later ones are done, and a crash
 * redelivers it (and the done ones after it, which crediting by tradeNo absorbs) instead of
 * skipping it.
 *
 * <p>Thread-safe (one lock; the work per call is a tree-set operation).
 */
public final class AckWindow {

  private final Map<Integer, Partition> partitions = new HashMap<>();

  private static final class Partition {
    final TreeSet<Long> inFlight = new TreeSet<>();
    long next = -1;
    long committed = -1;
  }

  /** A message taken for processing. Offsets of a partition must be tracked in increasing order. */
  public synchronized void track(int partition, long offset) {
    Partition p = partitions.computeIfAbsent(partition, k -> new Partition());
    if (offset < p.next) {
      throw new IllegalArgumentException(
          "offset " + offset + " of partition " + partition + " tracked after " + (p.next - 1));
    }
    p.inFlight.add(offset);
    p.next = offset + 1;
  }

  /** A message processed (acknowledged or settled for good). */
  public synchronized void done(int partition, long offset) {
    Partition p = partitions.get(partition);
    if (p != null) {
      p.inFlight.remove(offset);
    }
  }

  /**
   * For each partition whose commit point moved since last asked: the offset to commit (the next
   * message to read after a restart).
   */
  public synchronized Map<Integer, Long> committable() {
    var moved = new HashMap<Integer, Long>();
    partitions.forEach(
        (partition, p) -> {
          if (p.next < 0) {
            return;
          }
          long commit = p.inFlight.isEmpty() ? p.next : p.inFlight.first();
          if (commit > p.committed) {
            moved.put(partition, commit);
            p.committed = commit;
          }
        });
    return moved;
  }

  /** Messages taken and not yet done, over every partition. */
  public synchronized int inFlight() {
    return partitions.values().stream().mapToInt(p -> p.inFlight.size()).sum();
  }

  /** Drops a partition this consumer no longer owns; its in-flight messages go to the new owner. */
  public synchronized void forget(int partition) {
    partitions.remove(partition);
  }
}
