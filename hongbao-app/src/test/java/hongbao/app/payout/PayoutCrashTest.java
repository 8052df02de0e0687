package hongbao.app.payout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import hongbao.app.Config;
import hongbao.app.Parts;
import hongbao.app.support.Api;
import hongbao.app.support.Backends;
import hongbao.app.support.TestService;
import hongbao.app.workers.Workers;
import hongbao.core.ledger.ClaimPayment;
import hongbao.core.ledger.IdempotencyKey;
import hongbao.core.ledger.Ledger;
import hongbao.core.ledger.StoredAnswer;
import hongbao.core.ledger.WalletSnapshot;
import hongbao.core.money.Amount;
import hongbao.core.packet.ClaimDecision;
import hongbao.core.packet.ClaimResolution;
import hongbao.core.packet.Packet;
import hongbao.core.payout.PayoutTask;
import hongbao.core.payout.PayoutWorker;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Payout workers that die mid-batch: one after the ledger committed but before it acknowledged, one
 * right after taking its batch. A restarted worker reclaims what they left and every grab is paid
 * exactly once.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PayoutCrashTest {

  private static final int SHARES = 60;

  private TestService service;

  /** The backends under test: one Redis here, a cluster in the Cluster subclass. */
  Backends backends() {
    return Backends.embedded();
  }

  @BeforeAll
  void start() {
    service = TestService.start(backends(), Map.of(), false);
  }

  @AfterAll
  void stop() {
    service.close();
  }

  @Test
  void workerKilledBeforeAcknowledging_isHealedByARestartedWorker_payingEachGrabOnce() {
    Api api = service.api();
    Parts parts = service.hongbao().parts();
    Config config =
        Config.from(Map.of("HONGBAO_RECLAIM_IDLE_MILLIS", "1000", "HONGBAO_PAYOUT_BATCH", "20"));
    String sender = "crash-sender-" + System.nanoTime();
    api.topUp(sender, 6000);
    String packetId = api.sendLucky(api.token(sender), 6000, SHARES, 600);
    Map<String, Long> shares = new HashMap<>();
    Map<String, String> tokens = new HashMap<>();
    for (int i = 0; i < SHARES; i++) {
      String user = "crash-" + i + "-" + System.nanoTime();
      tokens.put(user, api.token(user));
      shares.put(user, api.grab(tokens.get(user), packetId).json().getLong("amount"));
    }

    // Killed after the ledger committed its batch, before acknowledging it.
    var dying = new DiesAfterPaying(parts.database().ledger());
    PayoutWorker first =
        new PayoutWorker(parts.queue(), dying, parts.switches(), settings(config, "worker-1"));
    assertThatThrownBy(first::payOnce).isInstanceOf(Killed.class);
    assertThat(dying.paidBeforeDying).isPositive();

    // Killed right after taking a batch: nothing paid, nothing acknowledged.
    List<PayoutTask> taken = parts.queue().poll("worker-2", 20, Duration.ofMillis(200));
    assertThat(taken).isNotEmpty();

    // The restarted worker takes over everything left pending once it has been idle long enough.
    PayoutWorker restarted = Workers.payoutWorker(config, parts, "worker-1");
    await()
        .atMost(Duration.ofSeconds(20))
        .pollInterval(Duration.ofMillis(200))
        .until(
            () -> {
              restarted.payOnce();
              restarted.reclaimOnce();
              return parts.queue().backlog() == 0;
            });

    Map<String, Amount> paid = parts.database().packets().paidGrabs(decode(api, packetId));
    assertThat(paid).hasSize(SHARES);
    for (var share : shares.entrySet()) {
      assertThat(paid.get(share.getKey())).isEqualTo(Amount.fen(share.getValue()));
      long balance =
          api.get("/api/v1/wallet", tokens.get(share.getKey())).json().getLong("balance");
      assertThat(balance).as("wallet of %s", share.getKey()).isEqualTo(share.getValue());
    }
    service.assertReconciledAfterSweeping();
  }

  private static long decode(Api api, String packetId) {
    return new hongbao.http.PacketIds(hongbao.http.PacketIds.DEFAULT_ALPHABET).decode(packetId);
  }

  private static PayoutWorker.PayoutSettings settings(Config config, String consumer) {
    return new PayoutWorker.PayoutSettings(
        consumer, 20, Duration.ofMillis(200), config.reclaimIdle(), config.maxDeliveries());
  }

  /**
   * Stands for a process killed between the ledger's commit and the queue's acknowledgement: an
   * {@link Error}, so nothing in the worker catches it, as nothing runs after a kill.
   */
  private static final class Killed extends Error {
    private static final long serialVersionUID = 1L;

    Killed() {
      super("killed after paying, before acknowledging");
    }
  }

  /** The real ledger, then death. */
  private static final class DiesAfterPaying implements Ledger {
    private final Ledger ledger;
    private int paidBeforeDying;

    DiesAfterPaying(Ledger ledger) {
      this.ledger = ledger;
    }

    @Override
    public int pay(List<PayoutTask> tasks) {
      paidBeforeDying += ledger.pay(tasks);
      throw new Killed();
    }

    @Override
    public long nextPacketId() {
      return ledger.nextPacketId();
    }

    @Override
    public void send(Packet packet, IdempotencyKey key, StoredAnswer answer) {
      ledger.send(packet, key, answer);
    }

    @Override
    public StoredAnswer topUp(
        String userId, Amount amount, IdempotencyKey key, Function<Amount, StoredAnswer> answer) {
      return ledger.topUp(userId, amount, key, answer);
    }

    @Override
    public Optional<StoredAnswer> answerFor(IdempotencyKey key) {
      return ledger.answerFor(key);
    }

    @Override
    public boolean refund(long packetId, Amount remainder, Instant at) {
      return ledger.refund(packetId, remainder, at);
    }

    @Override
    public ClaimPayment payClaim(PayoutTask task, Amount keep) {
      return ledger.payClaim(task, keep);
    }

    @Override
    public Optional<ClaimResolution> resolveRefusedClaim(
        long claimId, ClaimDecision decision, String note, Instant at) {
      return ledger.resolveRefusedClaim(claimId, decision, note, at);
    }

    @Override
    public WalletSnapshot wallet(String userId, int limit, Collection<Long> packetIds) {
      return ledger.wallet(userId, limit, packetIds);
    }
  }
}
