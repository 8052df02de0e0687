package hongbao.core.withdrawal;

import hongbao.core.TestClock;
import hongbao.core.ledger.IdempotencyKey;
import hongbao.core.ledger.StoredAnswer;
import hongbao.core.ops.Switch;
import hongbao.core.ops.Switches;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;

/** The withdrawal machinery on in-memory adapters, a fake gateway and a clock tests move. */
final class Withdrawals {

  static final Instant T0 = Instant.parse("2026-11-21T08:00:00Z");
  static final WithdrawalTimings TIMINGS =
      new WithdrawalTimings(
          Duration.ofSeconds(10),
          Duration.ofSeconds(30),
          Duration.ofSeconds(15),
          Duration.ofSeconds(1),
          Duration.ofSeconds(60),
          3);

  final TestClock clock = new TestClock(T0);
  final MemoryWithdrawals store = new MemoryWithdrawals();
  final FakeGateway gateway;
  final AtomicLong nonces = new AtomicLong();
  final Backoff backoff = new Backoff(TIMINGS, new SplittableRandom(1));
  final Settlement settlement;
  final List<Runnable> dispatched = Collections.synchronizedList(new ArrayList<>());
  final MemorySwitches switches = new MemorySwitches();
  ForcedCredit forcedCredit = ForcedCredit.NONE;
  private int keys;

  Withdrawals() {
    this(new FakeGateway());
  }

  /** On a gateway another set of withdrawals used too. */
  Withdrawals(FakeGateway gateway) {
    this.gateway = gateway;
    this.settlement = new Settlement(store, gateway, TIMINGS, backoff, clock);
  }

  /**
   * A settler of these withdrawals that talks to {@code gateway} (one that stalls or dies, say).
   */
  Settlement settlementOn(Gateway gateway) {
    return new Settlement(store, gateway, TIMINGS, backoff, clock);
  }

  WithdrawalService service() {
    return service(dispatched::add);
  }

  WithdrawalService service(Executor dispatch) {
    return new WithdrawalService(
        store,
        (u, t) -> forcedCredit.credit(u, t),
        settlement,
        dispatch,
        switches,
        TIMINGS,
        clock,
        nonces::incrementAndGet);
  }

  WithdrawalJanitor janitor() {
    return new WithdrawalJanitor(store, settlement, backoff, TIMINGS, clock, 50);
  }

  static IdempotencyKey key(String user, String key, String body) {
    return new IdempotencyKey(user, WithdrawalService.ENDPOINT, key, "hash:" + body);
  }

  /** Requests a withdrawal under a fresh key; returns its id. */
  long withdraw(String user, long fen) {
    IdempotencyKey key = key(user, "k" + (++keys), user + fen);
    return Long.parseLong(request(user, fen, key).payload());
  }

  StoredAnswer request(String user, long fen, IdempotencyKey key) {
    return service()
        .request(
            new WithdrawalRequest(user, fen, null),
            key,
            w -> new StoredAnswer(key.requestHash(), "ACCEPTED", Long.toString(w.id())));
  }

  /** Runs what the service handed to its senders (the request thread's sending). */
  void runDispatched() {
    List<Runnable> now;
    synchronized (dispatched) {
      now = List.copyOf(dispatched);
      dispatched.clear();
    }
    now.forEach(Runnable::run);
  }

  /** Time passes beyond every deadline and backoff; one janitor round runs. */
  int janitorRound() {
    clock.advance(TIMINGS.backoffMax().plus(TIMINGS.answerDeadline()));
    int total = 0;
    for (int taken = janitor().settleOnce(); taken > 0; taken = janitor().settleOnce()) {
      total += taken;
    }
    return total;
  }

  Withdrawal get(long id) {
    return store.find(id).orElseThrow();
  }

  WithdrawalStatus status(long id) {
    return get(id).status();
  }

  static final class MemorySwitches implements Switches {
    private final Map<Switch, Boolean> state = new EnumMap<>(Switch.class);

    @Override
    public boolean enabled(Switch which) {
      return state.getOrDefault(which, true);
    }

    @Override
    public Map<Switch, Boolean> set(Switch which, boolean enabled) {
      state.put(which, enabled);
      return all();
    }

    @Override
    public Map<Switch, Boolean> all() {
      return Map.copyOf(state);
    }
  }
}
