package hongbao.core.reward;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The acknowledgement window of a consumer that processes a partition's messages concurrently: the
 * offset it may commit is the lowest one not yet done, never beyond. So a message with a small
 * offset still in flight holds the commit back even when later ones are done, and a crash
 * redelivers it (and the done ones after it, which crediting by tradeNo absorbs) instead of
 * skipping it.
 *
 * <p>Thread-safe (one lock; the work per call is a tree-map operation).
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
    /** The generation of the messages tracked now; an offset's entry keeps its own. */
    long generation;

    /** Offset to the generation that took it. */
    final TreeMap<Long, Long> inFlight = new TreeMap<>();

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
   * committed, not refused as out of order and skipped. Messages below that offset still in flight
   * stay in the window and hold the commit back until they are done; those at or above it were cut
   * from the log, and their completion no longer counts.
   */
  public synchronized Ticket track(int partition, long offset) {
    Partition p = partitions.get(partition);
    if (p == null) {
      p = new Partition(++generations);
      partitions.put(partition, p);
    } else if (offset < p.next) {
      LOG.log(
          System.Logger.Level.WARNING,
          "partition "
              + partition
              + " went back from offset "
              + (p.next - 1)
              + " to "
              + offset
              + ": its window starts again there");
      p.inFlight.tailMap(offset, true).clear();
      p.generation = ++generations;
      // The offsets committed beyond the cut name records that are gone: commit again from here.
      p.committed = Math.min(p.committed, offset - 1);
    }
    p.inFlight.put(offset, p.generation);
    p.next = offset + 1;
    return new Ticket(partition, offset, p.generation);
  }

  /**
   * A message processed (acknowledged or settled for good). One whose offset was taken again since,
   * by a window that started again or after the partition was given up and assigned back, changes
   * nothing: its offset names another message now.
   */
  public synchronized void done(Ticket ticket) {
    Partition p = partitions.get(ticket.partition());
    if (p != null) {
      p.inFlight.remove(ticket.offset(), ticket.generation());
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
          long commit = p.inFlight.isEmpty() ? p.next : p.inFlight.firstKey();
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
