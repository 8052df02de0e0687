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

  private static final System.Logger LOG = System.getLogger(AckWindow.class.getName());

  private final Map<Integer, Partition> partitions = new HashMap<>();
  private long generations;

  /**
   * A message taken for processing, to hand back to {@link #done}. Its generation tells a message
   * of the partition's current window from one taken before the window started again (the partition
   * was given up and assigned back, or its offsets went back): the old one's completion must not
   * remove the current one's message of the same offset from the in-flight set.
   */
  public record Ticket(int partition, long offset, long generation) {}

  private static final class Partition {
    final long generation;
    final TreeSet<Long> inFlight = new TreeSet<>();
    long next = -1;
    long committed = -1;

    Partition(long generation) {
      this.generation = generation;
    }
  }

  /**
   * A message taken for processing. Offsets of a partition come in increasing order; one that goes
   * back means the partition's log was cut (a broker lost what it had acknowledged) or the position
   * was reset: the window starts again there, so the messages from that offset on are processed and
   * committed, not refused as out of order and skipped.
   */
  public synchronized Ticket track(int partition, long offset) {
    Partition p = partitions.get(partition);
    if (p == null || offset < p.next) {
      if (p != null) {
        LOG.log(
            System.Logger.Level.WARNING,
            "partition "
                + partition
                + " went back from offset "
                + (p.next - 1)
                + " to "
                + offset
                + ": its window starts again");
      }
      p = new Partition(++generations);
      partitions.put(partition, p);
    }
    p.inFlight.add(offset);
    p.next = offset + 1;
    return new Ticket(partition, offset, p.generation);
  }

  /**
   * A message processed (acknowledged or settled for good). One of a window that has started again
   * since changes nothing: its offset may name another message now.
   */
  public synchronized void done(Ticket ticket) {
    Partition p = partitions.get(ticket.partition());
    if (p != null && p.generation == ticket.generation()) {
      p.inFlight.remove(ticket.offset());
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
