package hongbao.testkit.sim;

import hongbao.core.activity.ActivityGrabs;
import hongbao.core.activity.ActivityStore;
import hongbao.core.expiry.ExpirySweeper;
import hongbao.core.grab.Arming;
import hongbao.core.grab.GrabReceipt;
import hongbao.core.grab.GrabService;
import hongbao.core.grab.Rearmer;
import hongbao.core.grab.Receipts;
import hongbao.core.grab.StoreRepair;
import hongbao.core.ledger.IdempotencyKey;
import hongbao.core.ledger.Ledger;
import hongbao.core.ledger.StoredAnswer;
import hongbao.core.money.Amount;
import hongbao.core.ops.Violations;
import hongbao.core.packet.PacketLimits;
import hongbao.core.packet.PacketType;
import hongbao.core.packet.SendRequest;
import hongbao.core.packet.SendRules;
import hongbao.core.password.PasswordCheck;
import hongbao.core.password.Pronunciation;
import hongbao.core.payout.PayoutWorker;
import hongbao.core.reconcile.Reconciler;
import hongbao.core.send.SendService;
import hongbao.core.split.SplitPolicies;
import hongbao.testkit.MemoryBooks;
import hongbao.testkit.MemoryGrabStore;
import hongbao.testkit.MemoryPacketStore;
import hongbao.testkit.MemoryPayoutQueue;
import hongbao.testkit.MemorySwitches;
import hongbao.testkit.SimClock;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;
import java.util.random.RandomGenerator;
import java.util.random.RandomGeneratorFactory;

/**
 * The real core services wired over the in-memory ports, as the composition root wires them over
 * Redis and PostgreSQL: one clock, randomness drawn from the seed, no threads. Settings that the
 * root reads from configuration are drawn from the seed here, so the seeds cover them too.
 */
final class World {

  static final Instant START = Instant.parse("2026-02-10T00:00:00Z");
  static final int MAX_DELIVERIES = 10;

  /** The auditor's patience while the run goes on: stuck money is judged once it has settled. */
  private static final Reconciler.Limits PATIENT =
      new Reconciler.Limits(Duration.ofDays(3650), Duration.ofDays(3650), Long.MAX_VALUE);

  final RandomGenerator random;
  final SimClock clock = new SimClock(START);
  final MemoryPayoutQueue queue = new MemoryPayoutQueue(clock);
  final MemorySwitches switches = new MemorySwitches();
  final MemoryBooks books = new MemoryBooks();
  final Ledger ledger;
  final MemoryPacketStore packets = new MemoryPacketStore(books);
  final MemoryPacketStore auditorPackets = new MemoryPacketStore(books, false);
  final Duration keyGrace;
  final MemoryGrabStore store;
  final Duration reclaimIdle;
  final int batchSize;
  final String luckyPolicy;
  final Arming arming;
  final SendService send;
  final GrabService grab;
  final List<ExpirySweeper> sweepers = new ArrayList<>();
  final Rearmer rearmer;
  final Violations violations = new Violations();
  final List<Worker> workers = new ArrayList<>();
  StoreRepair repair;
  private int consumers;

  /** A payout worker and the queue it sees, which can kill it between commit and ack. */
  record Worker(PayoutWorker worker, CrashingQueue queue) {}

  World(long seed, BiFunction<MemoryBooks, Clock, Ledger> ledgers) {
    this.random = RandomGeneratorFactory.of("L64X128MixRandom").create(seed);
    this.ledger = ledgers.apply(books, clock);
    // Far beyond the longest a sweeper is kept from running (outages, clock jumps), as 7 days are
    // beyond a 1 s sweep interval: keys aging out before the refund is reported as stuck money.
    this.keyGrace = Duration.ofMinutes(60 + random.nextInt(120));
    this.store = new MemoryGrabStore(clock, queue, keyGrace);
    this.reclaimIdle = Duration.ofSeconds(5 + random.nextInt(60));
    this.batchSize = 1 + random.nextInt(6);
    this.luckyPolicy = random.nextBoolean() ? "double-mean" : "at-grab";
    this.arming =
        new Arming(
            store,
            packets,
            SplitPolicies.named(luckyPolicy),
            SplitPolicies.named("fixed"),
            () -> RandomGeneratorFactory.of("L64X128MixRandom").create(random.nextLong()),
            clock,
            NO_PRONUNCIATION,
            NO_ACTIVITY_GRABS);
    this.send =
        new SendService(
            new SendRules(PacketLimits.DEFAULTS), ledger, arming, switches, NO_ACTIVITIES, clock);
    this.grab =
        new GrabService(
            store,
            new PasswordCheck(
                id -> CompletableFuture.completedFuture(Optional.empty()), NO_PRONUNCIATION),
            packets,
            arming,
            NO_ACTIVITY_GRABS,
            switches,
            NO_RECEIPTS,
            () -> random.nextLong(1L << 31),
            clock,
            Runnable::run);
    this.repair = new StoreRepair(store, packets, arming, clock);
    for (int i = 0; i < 2; i++) {
      sweepers.add(
          new ExpirySweeper(packets, store, ledger, repair, clock, 1 + random.nextInt(10)));
    }
    this.rearmer = new Rearmer(packets, arming, clock, Duration.ofSeconds(2), 10);
    for (int i = 0; i < 2; i++) {
      startWorker();
    }
  }

  /** A fresh worker under a consumer name never used before, as a restarted instance has. */
  void startWorker() {
    var view = new CrashingQueue(queue);
    var settings =
        new PayoutWorker.PayoutSettings(
            "sim-" + (++consumers), batchSize, Duration.ZERO, reclaimIdle, MAX_DELIVERIES);
    workers.add(new Worker(new PayoutWorker(view, ledger, switches, settings), view));
  }

  /** The instance restarts: its workers die with whatever they held; the repair starts afresh. */
  void restartInstance() {
    int alive = workers.size();
    workers.clear();
    for (int i = 0; i < Math.max(alive, 1); i++) {
      startWorker();
    }
    repair = new StoreRepair(store, packets, arming, clock);
  }

  /**
   * Alice is topped up with {@code amount} fen and sends it all as one FIXED packet of {@code
   * count} shares (expiring in 600 s): the packet's id. Once per world (the keys are fixed).
   */
  long aliceSendsFixed(long amount, int count) {
    return sendsFixed("alice", amount, count);
  }

  /** As {@link #aliceSendsFixed}, by {@code sender}: once per sender and world. */
  long sendsFixed(String sender, long amount, int count) {
    ledger.topUp(
        sender,
        Amount.fen(amount),
        new IdempotencyKey("admin", "topup", "t-" + sender, "t-" + sender),
        balance -> new StoredAnswer("t-" + sender, "DONE", ""));
    StoredAnswer answer =
        send.send(
            new SendRequest(sender, amount, count, PacketType.FIXED, "hi", 600L, null, null),
            new IdempotencyKey(sender, "send", "s1", sender + "/s1"),
            sent -> new StoredAnswer(sender + "/s1", "CREATED", Long.toString(sent.id())));
    return Long.parseLong(answer.payload());
  }

  Reconciler auditor() {
    return auditor(PATIENT);
  }

  Reconciler auditor(Reconciler.Limits limits) {
    return new Reconciler(books, auditorPackets, store, queue, clock, limits, violations);
  }

  private static final ActivityStore NO_ACTIVITIES =
      new ActivityStore() {
        @Override
        public hongbao.core.activity.Activity create(
            String name, int maxGrabsPerUser, String createdBy, Instant at) {
          throw new UnsupportedOperationException("the simulation sends no activities");
        }

        @Override
        public Optional<hongbao.core.activity.Activity> find(long activityId) {
          return Optional.empty();
        }

        @Override
        public java.util.Map<String, List<Long>> paidGrabs(long activityId) {
          return java.util.Map.of();
        }

        @Override
        public int paidGrabsOf(long activityId, String userId) {
          return 0;
        }
      };

  /** The simulation's packets belong to no activity: nothing reads the counts. */
  static final ActivityGrabs NO_ACTIVITY_GRABS = new ActivityGrabs(NO_ACTIVITIES, null);

  static final Pronunciation NO_PRONUNCIATION =
      new Pronunciation() {
        @Override
        public hongbao.core.password.Reading read(String key) {
          throw new UnsupportedOperationException("the simulation sends no 口令");
        }

        @Override
        public boolean alike(
            hongbao.core.password.Reading phrase,
            hongbao.core.password.Reading attempt,
            hongbao.core.password.PasswordMatch match) {
          throw new UnsupportedOperationException("the simulation sends no 口令");
        }
      };

  static final Receipts NO_RECEIPTS =
      new Receipts() {
        @Override
        public String seal(GrabReceipt receipt) {
          return "receipt";
        }

        @Override
        public Optional<GrabReceipt> open(String token, String userId) {
          return Optional.empty();
        }
      };
}
