package hongbao.core.grab;

import hongbao.core.money.Amount;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * Port: the fast store where packets are grabbed. Every method is atomic per packet; a grab never
 * touches the ledger. A successful grab also appends a payout task for the payout workers.
 */
public interface GrabStore {

  /**
   * Grabs a share, applying in order: already grabbed, expired, not eligible, wrong password, sold
   * out. Completes on a store thread.
   */
  CompletionStage<GrabOutcome> grab(GrabAttempt attempt);

  /**
   * Puts a packet into the store, with its restored grabs if it is rebuilt. Idempotent: arming an
   * armed (or closed) packet changes nothing and describes what is there; arming an expired packet
   * is refused.
   */
  ArmResult arm(ArmedPacket packet, Instant now);

  /**
   * Closes an expired packet and returns the amount nobody took. Idempotent: a second close returns
   * the same remainder. A packet the store has no state of is closed with {@code amountIfMissing}
   * (what the ledger says is left) as remainder, and can no longer be armed — but only once no
   * payout task of it waits, else {@link Closing.Busy}. The packet's dead-lettered payouts stay in
   * the escrow, taken off that remainder: those naming another {@code packetCreatedAt} are another
   * packet's under a reused id and take nothing off; a task naming none, or a {@code null}
   * creation, does.
   */
  Closing close(long packetId, Instant packetCreatedAt, Amount amountIfMissing, Instant now);

  /**
   * Puts grabs the store lost back, each taking its amount out of what is left; with {@code
   * claimed} a payout task is appended for each (a receipt was presented), without it none (the
   * ledger has paid them). One result per grab, in order.
   */
  List<Recovered> recover(long packetId, List<GrabRecord> grabs, boolean claimed);

  /**
   * What the packet's payout tasks of users other than {@code userId} come to, waiting or
   * dead-lettered (a retry may pay those), by user: escrow money that is theirs unless the ledger
   * paid them already (a task of a paid grab pays nothing again). Empty when the queue holds too
   * many tasks to look through.
   *
   * @param packetCreatedAt the creation of the packet meant, to the millisecond: tasks of another
   *     packet under the same id (PostgreSQL restored from a backup) owe nothing from this one's
   *     escrow. Null counts every task of the id, as do tasks that do not name their packet's
   *     creation (queued by an older version): refusing a claim, never overpaying.
   */
  Optional<Map<String, Amount>> owedToOthers(long packetId, Instant packetCreatedAt, String userId);

  /**
   * Holds the state under this id if it was created at {@code createdAt}: grabs then answer HELD.
   *
   * @return false when the state there is another one
   */
  boolean hold(long packetId, Instant createdAt);

  /**
   * Names the store's current lifetime: it changes when the store restarts (and so may have lost
   * acknowledged writes), which calls for a repair from the ledger.
   */
  String generation();

  /** A consistent snapshot, or empty when the store has nothing of this packet. */
  Optional<PacketState> state(long packetId);

  /** Grabbed-but-unpaid amounts of a user, by packet id. */
  Map<Long, Amount> pendingOf(String userId);
}
