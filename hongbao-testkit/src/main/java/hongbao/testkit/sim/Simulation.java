package hongbao.testkit.sim;

import hongbao.core.Invariants.InvariantViolation;
import hongbao.core.RejectedException;
import hongbao.core.Unavailable;
import hongbao.core.expiry.ExpirySweeper;
import hongbao.core.grab.GrabOutcome;
import hongbao.core.ledger.IdempotencyKey;
import hongbao.core.ledger.StoredAnswer;
import hongbao.core.money.Amount;
import hongbao.core.ops.Switch;
import hongbao.core.packet.PacketType;
import hongbao.core.packet.SendRequest;
import hongbao.core.reconcile.Reconciler;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * A deterministic run of the real core services over the in-memory ports: a seeded scheduler picks
 * one step at a time — a user sends or grabs, a payout worker pays or reclaims, one of two sweepers
 * refunds, the re-armer or the repair runs, time passes — and injects faults from the same seed: a
 * worker killed between the ledger's commit and its ack, a task delivered twice, the grab store
 * restarting without its last writes, the ledger down for a stretch, the clock jumping. After every
 * step the {@link Auditor} (the reconciler and the money invariants) must find nothing; at the end
 * everything is settled and audited strictly. The same seed replays the same run.
 */
public final class Simulation {

  /** The steps kept to explain a failure. */
  private static final int TRACE_KEPT = 40;

  private static final int USERS = 8;
  private static final long TOP_UP_FEN = 1_000_000;
  private static final int SETTLE_ROUNDS_MAX = 200;

  private final long seed;
  private final int steps;
  private final World world;
  private final Auditor auditor;
  private final Deque<String> trace = new ArrayDeque<>();
  private final List<Long> sent = new ArrayList<>();
  private Object storeSynced;
  private Object queueSynced;
  private int ledgerBackInSteps;
  private int payoutsBackInSteps;
  private int keys;

  private final LedgerVariant variant;

  private Simulation(long seed, int steps, LedgerVariant variant) {
    this.seed = seed;
    this.steps = steps;
    this.variant = variant;
    this.world = new World(seed, variant::create);
    this.auditor = new Auditor(world);
  }

  /** Runs a seed over the faithful in-memory ledger. */
  public static SimulationResult run(long seed, int steps) {
    return run(seed, steps, LedgerVariant.FAITHFUL);
  }

  /** Runs a seed over a ledger variant (a planted bug, to prove the simulator finds one). */
  public static SimulationResult run(long seed, int steps, LedgerVariant variant) {
    return new Simulation(seed, steps, variant).run();
  }

  private SimulationResult run() {
    int step = 0;
    try {
      for (int user = 0; user < USERS; user++) {
        topUp("u" + user);
      }
      sync();
      for (step = 1; step <= steps; step++) {
        note(step, oneStep());
        auditor.check();
      }
      step = steps + 1;
      note(step, settle());
      auditor.checkSettled(sent);
      return SimulationResult.passed(seed, steps, variant);
    } catch (AssertionError | InvariantViolation | RuntimeException failure) {
      return SimulationResult.failed(seed, steps, variant, step, failure, List.copyOf(trace));
    }
  }

  private void note(int step, String what) {
    trace.addLast(step + " @" + world.clock.instant() + " " + what);
    if (trace.size() > TRACE_KEPT) {
      trace.removeFirst();
    }
  }

  private String oneStep() {
    if (world.books.isDown() && --ledgerBackInSteps <= 0) {
      world.books.comeBack();
      return "postgres is back";
    }
    if (!world.switches.enabled(Switch.PAYOUTS) && --payoutsBackInSteps <= 0) {
      world.switches.set(Switch.PAYOUTS, true);
      return "payouts switched back on";
    }
    int dice = world.random.nextInt(100);
    if (dice < 14) {
      return send();
    } else if (dice < 52) {
      return grab();
    } else if (dice < 66) {
      return pay();
    } else if (dice < 70) {
      return reclaim();
    } else if (dice < 77) {
      return sweep();
    } else if (dice < 79) {
      return guarded("rearm", () -> "rearmed " + world.rearmer.rearmOnce());
    } else if (dice < 81) {
      return guarded("repair", () -> "repaired " + world.repair.checkOnce());
    } else if (dice < 91) {
      return tick(Duration.ofMillis(100 + world.random.nextInt(20_000)));
    }
    return fault();
  }

  private String fault() {
    int which = world.random.nextInt(100);
    if (which < 25) {
      World.Worker victim = world.workers.get(world.random.nextInt(world.workers.size()));
      victim.queue().crashOnNextAck();
      return "fault: " + victim.worker().consumer() + " will die between its commit and its ack";
    } else if (which < 50) {
      return "fault: a task handed out twice: " + world.queue.deliverAgain(world.random.nextInt());
    } else if (which < 65) {
      return tick(Duration.ofSeconds(60 + world.random.nextInt(900)));
    } else if (which < 80) {
      if (world.books.isDown()) {
        return "fault: postgres is already down";
      }
      world.books.goDown();
      ledgerBackInSteps = 1 + world.random.nextInt(30);
      return "fault: postgres down for " + ledgerBackInSteps + " steps";
    } else if (which < 90) {
      return powerLoss();
    }
    if (!world.switches.enabled(Switch.PAYOUTS)) {
      return "payouts are already switched off";
    }
    // Off for a stretch, as an operator would: far shorter than the key grace, or the grab
    // records of unpaid grabs age out and the reconciler rightly reports them.
    world.switches.set(Switch.PAYOUTS, false);
    payoutsBackInSteps = 1 + world.random.nextInt(30);
    return "payouts switched off for " + payoutsBackInSteps + " steps";
  }

  /**
   * The machine loses power: the grab store comes back without the writes after its last fsync
   * (grabs, closes, payout tasks and acks alike), and the instance restarts and repairs the store
   * from the ledger before it serves again. Only while PostgreSQL is up: a repair that cannot read
   * the ledger leaves a window in which a share can be sold twice, which the books then refuse and
   * the reconciler reports (see StoreRepair) — a known report, not a finding.
   */
  private String powerLoss() {
    if (world.books.isDown()) {
      return "fault: power loss skipped (postgres is down)";
    }
    world.store.restartLosing(storeSynced);
    world.queue.restore(queueSynced);
    world.restartInstance();
    auditor.storeRestarted();
    int repaired = world.repair.checkOnce();
    return "fault: power loss; store back at its last fsync, " + repaired + " put back";
  }

  /** Time passes; the store fsyncs its writes once a second at least. */
  private String tick(Duration by) {
    world.clock.advance(by);
    sync();
    return "clock +" + by.toMillis() + " ms";
  }

  private void sync() {
    storeSynced = world.store.snapshot();
    queueSynced = world.queue.snapshot();
  }

  private String send() {
    String sender = user();
    int count = 1 + world.random.nextInt(6);
    boolean fixed = world.random.nextInt(4) == 0;
    long amount =
        fixed ? count * (1L + world.random.nextInt(500)) : count + world.random.nextInt(3_000);
    long expiresIn = 5 + world.random.nextInt(300);
    var request =
        new SendRequest(
            sender,
            amount,
            count,
            fixed ? PacketType.FIXED : PacketType.LUCKY,
            "恭喜发财",
            expiresIn,
            null,
            null);
    // A client retry replays the last key now and then: the answer must be the stored one.
    String key = world.random.nextInt(10) == 0 && keys > 0 ? "s" + keys : "s" + (++keys);
    var idempotency = new IdempotencyKey(sender, "send", key, sender + "/" + key);
    return guarded(
        "send",
        () -> {
          StoredAnswer answer =
              world.send.send(
                  request,
                  idempotency,
                  packet -> {
                    sent.add(packet.id());
                    return new StoredAnswer(idempotency.requestHash(), "CREATED", "" + packet.id());
                  });
          return sender + " sent " + amount + " fen in " + count + " -> packet " + answer.payload();
        });
  }

  private String grab() {
    if (sent.isEmpty()) {
      return "grab: nothing sent yet";
    }
    long packetId = sent.get(world.random.nextInt(sent.size()));
    String user = user();
    return guarded(
        "grab",
        () -> {
          GrabOutcome outcome = joined(world.grab.grab(packetId, user, null));
          auditor.grabbed(packetId, user, outcome);
          return user + " grabs " + packetId + ": " + outcome;
        });
  }

  private String pay() {
    World.Worker worker = world.workers.get(world.random.nextInt(world.workers.size()));
    return guardedWorker(worker, "pay", () -> worker.worker().payOnce());
  }

  private String reclaim() {
    World.Worker worker = world.workers.get(world.random.nextInt(world.workers.size()));
    return guardedWorker(worker, "reclaim", () -> worker.worker().reclaimOnce());
  }

  private String sweep() {
    int which = world.random.nextInt(world.sweepers.size());
    ExpirySweeper sweeper = world.sweepers.get(which);
    return guarded(
        "sweeper " + which, () -> "sweeper " + which + " refunded " + sweeper.sweepOnce());
  }

  private String guardedWorker(
      World.Worker worker, String what, java.util.function.IntSupplier job) {
    String name = worker.worker().consumer() + " " + what;
    try {
      return name + ": settled " + job.getAsInt();
    } catch (SimulatedCrash crash) {
      world.workers.remove(worker);
      world.startWorker();
      return name + ": " + crash.getMessage() + "; a new worker starts";
    } catch (Unavailable outage) {
      return name + ": " + outage.getMessage();
    }
  }

  /**
   * The outcome of a grab, which runs to its end on this thread (the world's executors run tasks
   * where they are given); a failure is thrown as itself, as the API's error handlers see it.
   */
  private static GrabOutcome joined(java.util.concurrent.CompletionStage<GrabOutcome> grab) {
    try {
      return grab.toCompletableFuture().join();
    } catch (java.util.concurrent.CompletionException wrapped) {
      if (wrapped.getCause() instanceof RuntimeException cause) {
        throw cause;
      }
      throw wrapped;
    }
  }

  /** An outage or a refusal is an answer (503, 4xx); anything else fails the seed. */
  private static String guarded(String what, java.util.function.Supplier<String> job) {
    try {
      return job.get();
    } catch (Unavailable outage) {
      return what + ": 503 " + outage.getMessage();
    } catch (RejectedException rejected) {
      return what + ": refused " + rejected.rejection() + " " + rejected.getMessage();
    }
  }

  private String user() {
    return "u" + world.random.nextInt(USERS);
  }

  private void topUp(String user) {
    var key = new IdempotencyKey("admin", "topup", "t-" + user, "t-" + user);
    world.ledger.topUp(
        user, Amount.fen(TOP_UP_FEN), key, balance -> new StoredAnswer("t-" + user, "DONE", ""));
    auditor.toppedUp(TOP_UP_FEN);
  }

  /**
   * The end of the run: the ledger comes back, payouts are on, every packet expires; workers,
   * reclaims, sweepers and the repair run until nothing is left to do, boundedly.
   */
  private String settle() {
    world.books.comeBack();
    world.switches.set(Switch.PAYOUTS, true);
    world.restartInstance();
    world.clock.advance(Duration.ofDays(1));
    int rounds = 0;
    while (rounds++ < SETTLE_ROUNDS_MAX) {
      world.repair.checkOnce();
      world.rearmer.rearmOnce();
      World.Worker worker = world.workers.get(0);
      int paid = worker.worker().payOnce();
      world.clock.advance(world.reclaimIdle.plusSeconds(1));
      paid += worker.worker().reclaimOnce();
      int refunded = 0;
      for (ExpirySweeper sweeper : world.sweepers) {
        refunded += sweeper.sweepOnce();
      }
      world.clock.advance(Duration.ofMinutes(11));
      if (paid == 0
          && refunded == 0
          && world.queue.backlog() == 0
          && world.auditorPackets.open(0, 1).isEmpty()) {
        break;
      }
    }
    return "settled in " + rounds + " rounds";
  }

  /** The strictest auditor: nothing may wait any more. */
  static Reconciler.Limits settledLimits() {
    return new Reconciler.Limits(Duration.ZERO, Duration.ZERO, 0);
  }
}
