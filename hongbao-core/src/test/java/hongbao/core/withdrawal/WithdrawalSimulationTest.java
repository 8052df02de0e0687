package hongbao.core.withdrawal;

import static org.assertj.core.api.Assertions.assertThat;

import hongbao.core.money.Amount;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Many withdrawals against a gateway that fails at random (seeded), sent by concurrent request
 * threads and settled by several concurrent janitors, with the three-way audit as the auditor:
 * every withdrawal settles, none is paid twice or sent twice without a query in between, and every
 * wallet is exact.
 */
class WithdrawalSimulationTest {

  private static final int USERS = 30;
  private static final int WITHDRAWALS = 300;
  private static final int JANITORS = 3;

  @Test
  void randomFaults_concurrentJanitors_everyWithdrawalSettlesOnce() throws Exception {
    for (long seed = 1; seed <= 5; seed++) {
      simulate(seed);
    }
  }

  private void simulate(long seed) throws Exception {
    var random = new SplittableRandom(seed);
    var w = new Withdrawals();
    w.gateway.chaos(random.split());
    Map<String, Long> funded = new HashMap<>();
    for (int u = 0; u < USERS; u++) {
      w.store.fund("u" + u, 50_000);
      funded.put("u" + u, 50_000L);
    }
    ExecutorService threads = Executors.newFixedThreadPool(4);
    try {
      List<Long> ids = new ArrayList<>();
      for (int i = 0; i < WITHDRAWALS; i++) {
        ids.add(w.withdraw("u" + random.nextInt(USERS), 1 + random.nextInt(2_000)));
      }
      // The senders finish before time jumps: a real sender's call ends long before the answer
      // deadline, while this test's clock leaps past it in one step.
      List<Future<?>> sends = new ArrayList<>();
      for (Runnable send : List.copyOf(w.dispatched)) {
        sends.add(threads.submit(send));
      }
      w.dispatched.clear();
      for (Future<?> send : sends) {
        send.get(10, TimeUnit.SECONDS);
      }
      for (int round = 0; round < 60 && unsettled(w, ids) > 0; round++) {
        w.clock.advance(Withdrawals.TIMINGS.backoffMax().plus(Duration.ofSeconds(30)));
        List<Future<?>> janitors = new ArrayList<>();
        for (int j = 0; j < JANITORS; j++) {
          janitors.add(threads.submit(() -> drain(w.janitor())));
        }
        for (Future<?> janitor : janitors) {
          janitor.get(10, TimeUnit.SECONDS);
        }
      }

      assertThat(unsettled(w, ids)).as("seed %d: unsettled", seed).isZero();
      assertThat(w.gateway.payments)
          .as("seed %d: one payment per paid no", seed)
          .isEqualTo(w.gateway.paid.size());
      Map<String, Long> expected = new HashMap<>(funded);
      for (long id : ids) {
        Withdrawal withdrawal = w.get(id);
        String no = withdrawal.outTradeNo();
        assertThat(w.gateway.callsOf(no))
            .as("seed %d: %s re-sent without asking", seed, no)
            .doesNotContain("TT");
        if (withdrawal.status() == WithdrawalStatus.SUCCEEDED) {
          assertThat(w.gateway.paid.get(no)).isEqualTo(withdrawal.amount());
          expected.merge(withdrawal.userId(), -withdrawal.amount().fen(), Long::sum);
        } else {
          assertThat(w.gateway.paid).doesNotContainKey(no);
        }
      }
      expected.forEach(
          (user, fen) -> assertThat(w.store.wallet(user)).as(user).isEqualTo(Amount.fen(fen)));
      var audit = new WithdrawalAudit(w.store, w.gateway, w.clock, 30, Duration.ofDays(365));
      assertThat(audit.discrepancies()).as("seed %d: audit", seed).isEmpty();
    } finally {
      threads.shutdownNow();
    }
  }

  private static void drain(WithdrawalJanitor janitor) {
    for (int i = 0; i < 100 && janitor.settleOnce() > 0; i++) {
      // each pass takes up what is due; the leases keep passes from taking one twice
    }
  }

  private static long unsettled(Withdrawals w, List<Long> ids) {
    return ids.stream().filter(id -> !w.status(id).settled()).count();
  }
}
