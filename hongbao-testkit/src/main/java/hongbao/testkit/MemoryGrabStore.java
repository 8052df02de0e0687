package hongbao.testkit;

import hongbao.core.grab.ArmResult;
import hongbao.core.grab.ArmedPacket;
import hongbao.core.grab.Closing;
import hongbao.core.grab.GrabAttempt;
import hongbao.core.grab.GrabOutcome;
import hongbao.core.grab.GrabRecord;
import hongbao.core.grab.GrabStore;
import hongbao.core.grab.PacketState;
import hongbao.core.grab.Recovered;
import hongbao.core.money.Amount;
import hongbao.core.packet.Packet;
import hongbao.core.packet.PacketType;
import hongbao.core.payout.PayoutTask;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The grab store in memory, deciding as the Lua scripts do (grab.lua, arm.lua, close.lua,
 * recover.lua, hold.lua), each call atomic. A successful grab appends its payout task to the {@link
 * MemoryPayoutQueue} in the same step, as the script's XADD does. Keys age out at expiry plus the
 * key grace, on the injected clock.
 *
 * <p>Packets of activities are not modelled (arming one is refused); everything else is.
 */
public final class MemoryGrabStore implements GrabStore {

  private final Clock clock;
  private final MemoryPayoutQueue queue;
  private final Duration keyGrace;
  private Map<Long, Slot> slots = new HashMap<>();
  private int restarts;

  public MemoryGrabStore(Clock clock, MemoryPayoutQueue queue, Duration keyGrace) {
    this.clock = clock;
    this.queue = queue;
    this.keyGrace = keyGrace;
  }

  private enum Status {
    OPEN,
    CLOSED,
    HELD
  }

  /** One packet's keys: meta, shares, grabs and recipients. */
  private static final class Slot {
    long total;
    int count;
    long takenAmount;
    Status status = Status.OPEN;
    Instant expireAt;
    Instant createdAt;
    Instant ttlAt;
    String passwordKey;
    boolean exclusive;
    boolean atGrab;
    long cap;
    long spare;
    long remainder;
    Instant emptiedAt;
    List<Long> shares = new ArrayList<>();
    LinkedHashMap<String, GrabRecord> grabs = new LinkedHashMap<>();
    Set<String> eligible = new HashSet<>();

    Slot copy() {
      Slot c = new Slot();
      c.total = total;
      c.count = count;
      c.takenAmount = takenAmount;
      c.status = status;
      c.expireAt = expireAt;
      c.createdAt = createdAt;
      c.ttlAt = ttlAt;
      c.passwordKey = passwordKey;
      c.exclusive = exclusive;
      c.atGrab = atGrab;
      c.cap = cap;
      c.spare = spare;
      c.remainder = remainder;
      c.emptiedAt = emptiedAt;
      c.shares = new ArrayList<>(shares);
      c.grabs = new LinkedHashMap<>(grabs);
      c.eligible = new HashSet<>(eligible);
      return c;
    }

    int taken() {
      return grabs.size();
    }

    long available() {
      if (status == Status.CLOSED) {
        return 0;
      }
      if (atGrab) {
        return total - takenAmount;
      }
      return shares.stream().mapToLong(Long::longValue).sum() + spare;
    }
  }

  private Slot live(long packetId) {
    Slot slot = slots.get(packetId);
    if (slot != null && !clock.instant().isBefore(slot.ttlAt)) {
      slots.remove(packetId);
      return null;
    }
    return slot;
  }

  @Override
  public synchronized CompletionStage<GrabOutcome> grab(GrabAttempt attempt) {
    return CompletableFuture.completedFuture(grabNow(attempt));
  }

  private GrabOutcome grabNow(GrabAttempt attempt) {
    Slot slot = live(attempt.packetId());
    if (slot == null) {
      return GrabOutcome.NOT_FOUND;
    }
    GrabRecord earlier = slot.grabs.get(attempt.userId());
    if (earlier != null) {
      return new GrabOutcome.AlreadyGrabbed(earlier.amount());
    }
    if (slot.status == Status.HELD) {
      return GrabOutcome.HELD;
    }
    if (slot.count == 0) {
      return GrabOutcome.EXPIRED;
    }
    boolean over = slot.status == Status.CLOSED || !attempt.at().isBefore(slot.expireAt);
    if (over && slot.taken() < slot.count) {
      return GrabOutcome.EXPIRED;
    }
    if (slot.exclusive && !slot.eligible.contains(attempt.userId())) {
      return GrabOutcome.NOT_ELIGIBLE;
    }
    if (slot.passwordKey != null && !slot.passwordKey.equals(attempt.passwordKey())) {
      return GrabOutcome.WRONG_PASSWORD;
    }
    long share;
    if (slot.atGrab) {
      int left = slot.count - slot.taken();
      if (left <= 0) {
        return GrabOutcome.SOLD_OUT;
      }
      share = atGrabShare(slot.total - slot.takenAmount, left, slot.cap, attempt.random());
    } else {
      if (slot.shares.isEmpty()) {
        return GrabOutcome.SOLD_OUT;
      }
      share = slot.shares.remove(0);
    }
    int seq = slot.taken() + 1;
    slot.takenAmount += share;
    slot.grabs.put(
        attempt.userId(), new GrabRecord(attempt.userId(), Amount.fen(share), attempt.at(), seq));
    if (seq == slot.count) {
      slot.emptiedAt = attempt.at();
    }
    queue.append(
        new PayoutTask(
            attempt.packetId(),
            attempt.userId(),
            Amount.fen(share),
            attempt.at(),
            "",
            Instant.ofEpochMilli(slot.createdAt.toEpochMilli())));
    return new GrabOutcome.Grabbed(
        Amount.fen(share), seq, Instant.ofEpochMilli(slot.createdAt.toEpochMilli()), "");
  }

  /** grab.lua's cut of a share from what is left, as {@code AtGrabSplit.nextShare}. */
  private static long atGrabShare(long left, int sharesLeft, long capFen, long random) {
    if (sharesLeft == 1) {
      return left;
    }
    long cap = capFen == 0 ? left : capFen;
    long hi = Math.min(Math.min(Math.floorDiv(2 * left, sharesLeft), left - (sharesLeft - 1)), cap);
    long lo = Math.max(1, left - cap * (sharesLeft - 1));
    return lo + Math.floorMod(random, hi - lo + 1);
  }

  @Override
  public synchronized ArmResult arm(ArmedPacket armed, Instant now) {
    Packet packet = armed.packet();
    if (armed.grabsPerUserMax() != 0) {
      throw new UnsupportedOperationException("the in-memory store models no activities");
    }
    Slot existing = live(packet.id());
    if (existing != null) {
      return new ArmResult.Existing(Amount.fen(existing.total), existing.count, existing.createdAt);
    }
    if (!now.isBefore(packet.expiresAt())) {
      return ArmResult.TOO_LATE;
    }
    Slot slot = new Slot();
    slot.total = packet.amount().fen();
    slot.count = packet.count();
    slot.expireAt = packet.expiresAt();
    slot.createdAt = packet.createdAt();
    slot.ttlAt = packet.expiresAt().plus(keyGrace);
    slot.passwordKey = packet.passwordKey();
    slot.exclusive = packet.type() == PacketType.EXCLUSIVE;
    slot.eligible.addAll(packet.recipients());
    slot.atGrab = armed.splitAtGrab();
    slot.cap = armed.capFen();
    armed.shares().forEach(share -> slot.shares.add(share.fen()));
    for (GrabRecord restored : armed.restored()) {
      int seq = slot.taken() + 1;
      slot.grabs.put(
          restored.userId(),
          new GrabRecord(restored.userId(), restored.amount(), restored.at(), seq));
      slot.takenAmount += restored.amount().fen();
    }
    if (slot.taken() == slot.count) {
      slot.emptiedAt = now;
      if (!slot.atGrab) {
        slot.spare = slot.total - slot.takenAmount; // as recover.lua left it before the loss
      }
    }
    slots.put(packet.id(), slot);
    return ArmResult.ARMED;
  }

  @Override
  public synchronized Closing close(
      long packetId, Instant packetCreatedAt, Amount amountIfMissing, Instant now) {
    Slot slot = live(packetId);
    if (slot == null) {
      if (queue.hasTasksOf(packetId)) {
        return Closing.BUSY;
      }
      // As close.lua: the dead-lettered payouts stay in the escrow for a retry.
      long left =
          Math.max(
              0, amountIfMissing.fen() - queue.deadLetteredOf(packetId, packetCreatedAt).fen());
      Slot tombstone = new Slot();
      tombstone.total = left;
      tombstone.status = Status.CLOSED;
      tombstone.expireAt = now;
      tombstone.createdAt = now;
      tombstone.ttlAt = now.plus(keyGrace);
      tombstone.remainder = left;
      slots.put(packetId, tombstone);
      return new Closing.Closed(Amount.fen(left));
    }
    return switch (slot.status) {
      case CLOSED -> new Closing.Closed(Amount.fen(slot.remainder));
      case HELD -> Closing.HELD;
      case OPEN -> {
        if (now.isBefore(slot.expireAt)) {
          yield Closing.NOT_YET;
        }
        slot.remainder = slot.total - slot.takenAmount;
        slot.status = Status.CLOSED;
        slot.shares.clear();
        yield new Closing.Closed(Amount.fen(slot.remainder));
      }
    };
  }

  @Override
  public synchronized Optional<Map<String, Amount>> owedToOthers(
      long packetId, Instant packetCreatedAt, String userId) {
    return Optional.of(queue.owedToOthers(packetId, packetCreatedAt, userId));
  }

  @Override
  public synchronized List<Recovered> recover(
      long packetId, List<GrabRecord> grabs, boolean claimed) {
    var results = new ArrayList<Recovered>(grabs.size());
    for (GrabRecord grab : grabs) {
      results.add(recoverOne(packetId, grab, claimed));
    }
    return results;
  }

  private Recovered recoverOne(long packetId, GrabRecord grab, boolean claimed) {
    Slot slot = live(packetId);
    if (slot == null) {
      return Recovered.MISSING;
    }
    GrabRecord there = slot.grabs.get(grab.userId());
    if (there != null) {
      return new Recovered.AlreadyThere(there.amount());
    }
    if (slot.status == Status.CLOSED && slot.count > 0) {
      return Recovered.REFUNDED;
    }
    if (slot.status != Status.OPEN || slot.count == 0) {
      return Recovered.CLOSED;
    }
    long amount = grab.amount().fen();
    if (slot.taken() >= slot.count) {
      return Recovered.EXHAUSTED;
    }
    if (slot.atGrab) {
      long leftAfter = slot.total - slot.takenAmount - amount;
      if (leftAfter < slot.count - slot.taken() - 1) {
        return Recovered.EXHAUSTED;
      }
    } else if (!takeFromPool(slot, amount)) {
      return Recovered.EXHAUSTED;
    }
    int seq = slot.taken() + 1;
    slot.takenAmount += amount;
    slot.grabs.put(grab.userId(), new GrabRecord(grab.userId(), grab.amount(), grab.at(), seq));
    if (seq == slot.count) {
      slot.emptiedAt = grab.at();
    }
    if (claimed) {
      queue.append(
          new PayoutTask(
              packetId,
              grab.userId(),
              grab.amount(),
              grab.at(),
              "",
              Instant.ofEpochMilli(slot.createdAt.toEpochMilli())));
    }
    return new Recovered.Done(grab.amount(), seq);
  }

  /**
   * recover.lua's pool: the next share gives up exactly {@code amount}; a larger share's surplus
   * moves onto the next (or the spare, for the last); a smaller one's lack is taken from later
   * shares (never the spare), keeping each at 1 fen at least. All or nothing.
   */
  private static boolean takeFromPool(Slot slot, long amount) {
    if (slot.shares.isEmpty()) {
      return false;
    }
    List<Long> pool = new ArrayList<>(slot.shares);
    long first = pool.remove(0);
    long spare = slot.spare;
    if (first >= amount) {
      long surplus = first - amount;
      if (pool.isEmpty()) {
        spare += surplus;
      } else {
        pool.set(0, pool.get(0) + surplus);
      }
    } else {
      long lack = amount - first;
      for (int i = 0; i < pool.size() && lack > 0; i++) {
        long give = Math.min(lack, pool.get(i) - 1);
        pool.set(i, pool.get(i) - give);
        lack -= give;
      }
      if (lack > 0) {
        return false;
      }
    }
    slot.shares = pool;
    slot.spare = spare;
    return true;
  }

  @Override
  public synchronized boolean hold(long packetId, Instant createdAt) {
    Slot slot = live(packetId);
    if (slot == null || !slot.createdAt.equals(createdAt)) {
      return false;
    }
    slot.status = Status.HELD;
    return true;
  }

  @Override
  public synchronized String generation() {
    return "memory-" + restarts;
  }

  @Override
  public synchronized Optional<PacketState> state(long packetId) {
    Slot slot = live(packetId);
    if (slot == null) {
      return Optional.empty();
    }
    return Optional.of(
        new PacketState(
            packetId,
            Amount.fen(slot.total),
            slot.count,
            slot.taken(),
            Amount.fen(slot.takenAmount),
            Amount.fen(slot.available()),
            slot.status == Status.CLOSED,
            Amount.fen(slot.status == Status.CLOSED ? slot.remainder : 0),
            slot.emptiedAt,
            List.copyOf(slot.grabs.values())));
  }

  @Override
  public synchronized Map<Long, Amount> pendingOf(String userId) {
    var pending = new HashMap<Long, Amount>();
    for (PayoutTask task : queue.unacknowledged()) {
      if (task.userId().equals(userId)) {
        pending.merge(task.packetId(), task.amount(), Amount::plus);
      }
    }
    return pending;
  }

  /** The store's state now, to {@link #restartLosing} back to when a crash loses later writes. */
  public synchronized Object snapshot() {
    var copy = new HashMap<Long, Slot>();
    slots.forEach((id, slot) -> copy.put(id, slot.copy()));
    return copy;
  }

  /**
   * Fault: the store restarts having lost every write after {@code snapshot} (the fsync window):
   * its state goes back to the snapshot and its generation changes.
   */
  @SuppressWarnings("unchecked")
  public synchronized void restartLosing(Object snapshot) {
    var restored = new HashMap<Long, Slot>();
    ((Map<Long, Slot>) snapshot).forEach((id, slot) -> restored.put(id, slot.copy()));
    slots = restored;
    restarts++;
  }
}
