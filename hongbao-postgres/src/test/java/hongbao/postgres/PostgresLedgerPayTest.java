package hongbao.postgres;

import static hongbao.postgres.TestSchema.task;
import static hongbao.postgres.TestSchema.user;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import hongbao.core.ledger.ClaimPayment;
import hongbao.core.money.Amount;
import hongbao.core.packet.Packet;
import hongbao.core.payout.PayoutRefused;
import hongbao.core.payout.PayoutTask;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class PostgresLedgerPayTest extends LedgerTestBase {

  private static final Duration DAY = Duration.ofDays(1);

  @Test
  void pay_batch_movesEachShareFromEscrowToItsGrabber() {
    String alice = user("alice");
    String bob = user("bob");
    String carol = user("carol");
    db.topUp(alice, 1_000);
    Packet packet = db.send(alice, 1_000, 3);

    int paid = db.ledger.pay(List.of(task(packet, bob, 300), task(packet, carol, 500)));

    assertThat(paid).isEqualTo(2);
    assertThat(db.balance(bob)).isEqualTo(Amount.fen(300));
    assertThat(db.balance(carol)).isEqualTo(Amount.fen(500));
    assertThat(db.audit.escrowBalance(packet.id())).isEqualTo(Amount.fen(200));
    assertThat(db.packets.paidGrabs(packet.id()))
        .isEqualTo(Map.of(bob, Amount.fen(300), carol, Amount.fen(500)));
  }

  @Test
  void pay_replayedBatch_paysNothing() {
    String alice = user("alice");
    String bob = user("bob");
    db.topUp(alice, 1_000);
    Packet packet = db.send(alice, 1_000, 3);
    List<PayoutTask> batch = List.of(task(packet, bob, 300));
    db.ledger.pay(batch);

    int paidAgain = db.ledger.pay(batch);

    assertThat(paidAgain).isZero();
    assertThat(db.balance(bob)).isEqualTo(Amount.fen(300));
    assertThat(db.audit.escrowBalance(packet.id())).isEqualTo(Amount.fen(700));
  }

  @Test
  void pay_partlyReplayedBatch_paysOnlyTheNewTasks() {
    String alice = user("alice");
    String bob = user("bob");
    String carol = user("carol");
    db.topUp(alice, 1_000);
    Packet packet = db.send(alice, 1_000, 3);
    db.ledger.pay(List.of(task(packet, bob, 300)));

    int paid = db.ledger.pay(List.of(task(packet, bob, 300), task(packet, carol, 100)));

    assertThat(paid).isEqualTo(1);
    assertThat(db.balance(bob)).isEqualTo(Amount.fen(300));
    assertThat(db.balance(carol)).isEqualTo(Amount.fen(100));
  }

  @Test
  void pay_sameTaskTwiceInOneBatch_paysItOnce() {
    String alice = user("alice");
    String bob = user("bob");
    db.topUp(alice, 1_000);
    Packet packet = db.send(alice, 1_000, 3);

    int paid = db.ledger.pay(List.of(task(packet, bob, 300), task(packet, bob, 300)));

    assertThat(paid).isEqualTo(1);
    assertThat(db.balance(bob)).isEqualTo(Amount.fen(300));
  }

  @Test
  void pay_sameTasksFromSeveralThreads_paysEveryTaskExactlyOnce() throws InterruptedException {
    String alice = user("alice");
    db.topUp(alice, 10 * 50 * 10);
    List<PayoutTask> tasks = new ArrayList<>();
    List<String> grabbers = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      grabbers.add(user("grabber"));
    }
    List<Packet> sent = new ArrayList<>();
    for (int p = 0; p < 10; p++) {
      Packet packet = db.send(alice, 50 * 10, 50);
      sent.add(packet);
      for (String grabber : grabbers) {
        tasks.add(task(packet, grabber, 10));
      }
    }
    List<Callable<Integer>> workers = new ArrayList<>();
    for (int w = 0; w < 4; w++) {
      // Each worker sees the same 500 tasks in its own order and batch boundaries, as redelivered
      // stream entries would arrive.
      List<PayoutTask> mine = new ArrayList<>(tasks);
      Collections.shuffle(mine, new Random(w));
      int batchSize = 60 + 40 * w;
      workers.add(
          () -> {
            int paid = 0;
            for (int from = 0; from < mine.size(); from += batchSize) {
              paid += db.ledger.pay(mine.subList(from, Math.min(mine.size(), from + batchSize)));
            }
            return paid;
          });
    }

    List<Race.Result<Integer>> results = Race.run(workers);

    assertThat(results).allSatisfy(r -> assertThat(r.failure()).isNull());
    assertThat(results.stream().mapToInt(Race.Result::value).sum()).isEqualTo(500);
    assertThat(grabbers).allSatisfy(g -> assertThat(db.balance(g)).isEqualTo(Amount.fen(100)));
    assertThat(sent)
        .allSatisfy(p -> assertThat(db.audit.escrowBalance(p.id())).isEqualTo(Amount.ZERO));
  }

  /**
   * Claims of one packet, each weighed against what the others' queued payouts are owed: the
   * escrow's lock lets them through one at a time, so exactly the room beyond what it keeps is
   * paid, however many race for it.
   */
  @Test
  void payClaim_fromSeveralThreads_paysOnlyTheRoomBeyondWhatTheEscrowKeeps()
      throws InterruptedException {
    String alice = user("alice");
    db.topUp(alice, 1_000);
    Packet packet = db.send(alice, 1_000, 10);
    List<Callable<ClaimPayment>> claims = new ArrayList<>();
    List<String> claimants = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      String claimant = user("claimant");
      claimants.add(claimant);
      claims.add(() -> db.ledger.payClaim(task(packet, claimant, 100), Amount.fen(200)));
    }

    List<Race.Result<ClaimPayment>> results = Race.run(claims);

    assertThat(results).allSatisfy(r -> assertThat(r.failure()).isNull());
    assertThat(results)
        .filteredOn(r -> r.value() == ClaimPayment.PAID)
        .as("1,000 less the 200 kept")
        .hasSize(8);
    assertThat(results).filteredOn(r -> r.value() == ClaimPayment.NO_ROOM).hasSize(4);
    assertThat(db.audit.escrowBalance(packet.id())).isEqualTo(Amount.fen(200));
    assertThat(db.packets.paidGrabs(packet.id())).hasSize(8);
    assertThat(claimants.stream().mapToLong(c -> db.balance(c).fen()).sum()).isEqualTo(800);
  }

  /**
   * A sweeper claiming an expired packet marks it closing only once no claim of it is being paid: a
   * payment holds its escrow's lock until it commits, and the claim waits for that lock, so what
   * the sweeper reads next has the payment. After the mark, no claim of the packet is paid.
   */
  @Test
  void claimExpired_waitsForAClaimBeingPaid_andThenNoClaimIsPaid() throws Exception {
    String alice = user("alice");
    String bob = user("bob");
    db.topUp(alice, 1_000);
    // Expired before every other packet of the schema, so that only it is claimed.
    Packet packet =
        db.send(db.packet(alice, 1_000, 3, TestSchema.T0.minus(Duration.ofDays(30)), DAY));
    Instant expiry = packet.expiresAt();
    try (Connection paying = db.database.dataSource().getConnection()) {
      paying.setAutoCommit(false);
      try (PreparedStatement lock =
          paying.prepareStatement("SELECT 1 FROM account WHERE id = ? FOR UPDATE")) {
        lock.setString(1, Sql.escrowAccount(packet.id()));
        lock.executeQuery().close();
      }
      var sweeping =
          CompletableFuture.supplyAsync(
              () -> db.packets.claimExpired(expiry, expiry.plusSeconds(30), 10));
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> sweeping.isDone() || waitingForAnEscrow() > 0);
      assertThat(sweeping.isDone())
          .as("the claim waits for the payment's lock: %s", sweeping.getNow(null))
          .isFalse();
      paying.commit();
      assertThat(sweeping.get(30, TimeUnit.SECONDS)).extracting(Packet::id).contains(packet.id());
    }

    assertThat(db.ledger.payClaim(task(packet, bob, 300), Amount.ZERO))
        .isEqualTo(ClaimPayment.CLOSING);
    assertThat(db.balance(bob)).isEqualTo(Amount.ZERO);
    assertThat(db.audit.escrowBalance(packet.id())).isEqualTo(Amount.fen(1_000));
  }

  private static long waitingForAnEscrow() throws SQLException {
    try (Connection connection = db.database.dataSource().getConnection();
        PreparedStatement waiting =
            connection.prepareStatement(
                "SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid"
                    + " WHERE NOT l.granted AND a.query LIKE 'SELECT 1 FROM account WHERE id ="
                    + " ANY%'");
        ResultSet count = waiting.executeQuery()) {
      count.next();
      return count.getLong(1);
    }
  }

  @Test
  void pay_batchThatWouldOverdrawAnEscrow_failsAndPaysNothing() {
    String alice = user("alice");
    String bob = user("bob");
    String carol = user("carol");
    db.topUp(alice, 1_000);
    Packet packet = db.send(alice, 100, 2);

    assertThatThrownBy(() -> db.ledger.pay(List.of(task(packet, bob, 60), task(packet, carol, 60))))
        .isInstanceOf(PayoutRefused.class)
        .hasMessageContaining("the books refuse");

    assertThat(db.audit.escrowBalance(packet.id())).isEqualTo(Amount.fen(100));
    assertThat(db.balance(bob)).isEqualTo(Amount.ZERO);
    assertThat(db.packets.paidGrabs(packet.id())).isEmpty();
  }

  @Test
  void pay_fromUnknownPacket_failsAndPaysNothing() {
    String bob = user("bob");
    PayoutTask ghost = new PayoutTask(Long.MAX_VALUE / 2, bob, Amount.fen(5), null, "tag");

    assertThatThrownBy(() -> db.ledger.pay(List.of(ghost)))
        .isInstanceOf(PayoutRefused.class)
        .hasMessageContaining("no escrow");

    assertThat(db.balance(bob)).isEqualTo(Amount.ZERO);
  }

  @Test
  void pay_moreGrabsThanShares_isRefusedByTheLedgerItself() {
    String alice = user("alice");
    db.topUp(alice, 1_000);
    Packet packet = db.send(alice, 100, 2);
    db.ledger.pay(List.of(task(packet, user("bob"), 10), task(packet, user("carol"), 10)));
    String dave = user("dave");

    // 80 fen are still in escrow, but both shares are paid: a third grab is a share sold twice.
    assertThatThrownBy(() -> db.ledger.pay(List.of(task(packet, dave, 10))))
        .isInstanceOf(PayoutRefused.class);

    assertThat(db.audit.escrowBalance(packet.id())).isEqualTo(Amount.fen(80));
    assertThat(db.balance(dave)).isEqualTo(Amount.ZERO);
    assertThat(db.packets.paidGrabs(packet.id())).hasSize(2);
  }

  @Test
  void pay_emptyBatch_paysNothing() {
    assertThat(db.ledger.pay(List.of())).isZero();
  }
}
