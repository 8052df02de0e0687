package hongbao.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import hongbao.core.RejectedException;
import hongbao.core.Rejection;
import hongbao.core.ledger.ClaimPayment;
import hongbao.core.ledger.EntryKind;
import hongbao.core.ledger.IdempotencyKey;
import hongbao.core.ledger.IdempotencyRaceException;
import hongbao.core.ledger.Ledger;
import hongbao.core.ledger.StoredAnswer;
import hongbao.core.ledger.WalletSnapshot;
import hongbao.core.money.Amount;
import hongbao.core.packet.ClaimDecision;
import hongbao.core.packet.ClaimResolution;
import hongbao.core.packet.OpenRefusedClaim;
import hongbao.core.packet.Packet;
import hongbao.core.packet.PacketStore;
import hongbao.core.packet.PacketType;
import hongbao.core.packet.RefusedClaim;
import hongbao.core.payout.PayoutRefused;
import hongbao.core.payout.PayoutTask;
import hongbao.core.reconcile.LedgerAudit;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What every ledger must do, run against the in-memory books and PostgreSQL alike: a payout is made
 * once whatever replays it, no escrow pays more than its amount or count (the whole batch is
 * refused), no wallet sends more than it holds, a refund happens once and never exceeds the escrow,
 * an idempotency key is taken once, and every balance is the sum of its transfers.
 */
public abstract class LedgerContract {

  private static final AtomicLong IDS = new AtomicLong();
  private static final Instant T0 = Instant.parse("2026-11-21T08:00:00Z");

  protected abstract Ledger ledger();

  protected abstract PacketStore packets();

  protected abstract LedgerAudit audit();

  private static String user(String name) {
    return name + "-c" + IDS.incrementAndGet();
  }

  /** Users of this test alone: a new instance of the class runs each test. */
  private final String alice = user("alice");

  private final String bob = user("bob");
  private final String carol = user("carol");
  private final String dave = user("dave");

  private static IdempotencyKey key(String userId, String endpoint) {
    String k = "k" + IDS.incrementAndGet();
    return new IdempotencyKey(userId, endpoint, k, "hash-" + k);
  }

  private void topUp(String userId, long fen) {
    IdempotencyKey key = key("admin", "topup");
    ledger()
        .topUp(userId, Amount.fen(fen), key, b -> new StoredAnswer(key.requestHash(), "DONE", ""));
  }

  private Packet send(String sender, long fen, int count) {
    var packet =
        new Packet(
            ledger().nextPacketId(),
            sender,
            PacketType.LUCKY,
            Amount.fen(fen),
            count,
            null,
            null,
            List.of(),
            T0,
            T0.plus(Duration.ofDays(1)));
    IdempotencyKey key = key(sender, "send");
    ledger().send(packet, key, new StoredAnswer(key.requestHash(), "CREATED", "{}"));
    return packet;
  }

  /** A packet of {@code fen} in {@code count} shares, sent by alice out of a top-up of as much. */
  private Packet sentByAlice(long fen, int count) {
    topUp(alice, fen);
    return send(alice, fen, count);
  }

  private static PayoutTask task(Packet packet, String userId, long fen) {
    return new PayoutTask(packet.id(), userId, Amount.fen(fen), T0.plusSeconds(1), "tag");
  }

  private Amount balance(String userId) {
    return ledger().wallet(userId, 0).balance();
  }

  @AfterEach
  void everyBalanceIsTheSumOfItsTransfers() {
    assertThat(audit().accountProblems()).isEmpty();
  }

  /**
   * The incremental reconciliation's page: an open packet always (grabs may still land), a closed
   * one only if it was created, closed or posted to at or after {@code since}.
   */
  @Test
  void packetsTouchedSince_areTheOpenOnes_andTheClosedOnesThatMovedSince() {
    topUp(alice, 2_000);
    Packet open = send(alice, 1_000, 2);
    Packet closed = send(alice, 1_000, 2);
    assertThat(ledger().refund(closed.id(), Amount.fen(1_000), T0.plus(Duration.ofDays(1))))
        .isTrue();
    long before = Math.min(open.id(), closed.id()) - 1;

    // Long after anything happened here: only the open packet can still change.
    assertThat(ids(audit().packetsTouchedSince(T0.plus(Duration.ofDays(3650)), before, 500)))
        .contains(open.id())
        .doesNotContain(closed.id());
    // Closed after this instant: moved since.
    assertThat(ids(audit().packetsTouchedSince(T0.plus(Duration.ofHours(12)), before, 500)))
        .contains(open.id(), closed.id());
    // Created at this instant: moved since.
    assertThat(ids(audit().packetsTouchedSince(T0, before, 500))).contains(open.id(), closed.id());
    // Ids at or below afterId are never in the page.
    assertThat(ids(audit().packetsTouchedSince(T0, Math.max(open.id(), closed.id()), 500)))
        .isEmpty();
  }

  private static List<Long> ids(List<Packet> packets) {
    return packets.stream().map(Packet::id).toList();
  }

  @Test
  void walletSnapshot_namesWhichOfTheAskedPacketsPaidTheUser() {
    topUp(alice, 1_000);
    Packet paid = send(alice, 300, 1);
    Packet unpaid = send(alice, 400, 1);
    Packet paidToAlice = send(alice, 200, 1);
    ledger().pay(List.of(task(paid, bob, 300), task(paidToAlice, alice, 200)));

    WalletSnapshot snapshot =
        ledger().wallet(bob, 10, List.of(paid.id(), unpaid.id(), paidToAlice.id()));

    assertThat(snapshot.wallet().balance()).isEqualTo(Amount.fen(300));
    assertThat(snapshot.paidPackets()).containsExactly(paid.id());
    assertThat(ledger().wallet(bob, 10, List.of()).paidPackets()).isEmpty();
  }

  /**
   * A refused claim stays reported until its grab is paid: a worker that polled the payout before
   * the loss may commit it after the claim read the ledger, and then nothing was lost.
   */
  @Test
  void refusedClaims_areTheOnesStillUnpaid() {
    Packet packet = sentByAlice(1_000, 3);
    packets()
        .recordRefusedClaim(
            new RefusedClaim(packet.id(), bob, Amount.fen(300), "lost", T0.plusSeconds(5)));
    packets()
        .recordRefusedClaim(
            new RefusedClaim(packet.id(), carol, Amount.fen(300), "lost", T0.plusSeconds(6)));
    assertThat(refusedUsers(packet)).containsExactly(bob, carol);

    ledger().pay(List.of(task(packet, bob, 300)));

    assertThat(refusedUsers(packet)).containsExactly(carol);
  }

  /**
   * A claim refused because its receipt named an older packet under the same id is not paid when
   * the ledger's packet pays the same user: that money is the new packet's, the old grab is still
   * owed.
   */
  @Test
  void refusedClaims_ofAnotherPacketCreation_stayWhenTheLedgersPacketPaysTheUser() {
    Packet packet = sentByAlice(1_000, 3);
    Instant created = packet.createdAt().truncatedTo(ChronoUnit.MILLIS);
    Instant older = created.minus(Duration.ofDays(1));
    packets()
        .recordRefusedClaim(
            new RefusedClaim(packet.id(), bob, Amount.fen(300), "older", T0.plusSeconds(5), older));
    packets()
        .recordRefusedClaim(
            new RefusedClaim(
                packet.id(), carol, Amount.fen(300), "lost", T0.plusSeconds(6), created));
    // Carol's receipt of the older packet, refused after her claim of the newer one: both kept.
    packets()
        .recordRefusedClaim(
            new RefusedClaim(
                packet.id(), carol, Amount.fen(200), "older", T0.plusSeconds(7), older));
    packets()
        .recordRefusedClaim(
            new RefusedClaim(
                packet.id(), carol, Amount.fen(200), "again", T0.plusSeconds(8), older));

    ledger().pay(List.of(task(packet, bob, 300), task(packet, carol, 300)));

    assertThat(packets().refusedClaims(1_000))
        .filteredOn(claim -> claim.packetId() == packet.id())
        .extracting(RefusedClaim::userId, RefusedClaim::packetCreatedAt, RefusedClaim::reason)
        .containsExactly(tuple(bob, older, "older"), tuple(carol, older, "older"));
  }

  /**
   * An operator compensates one refused claim and dismisses another: the first is paid into the
   * wallet from the system account, once, under the packet but not out of its escrow; neither is
   * reported any more. The same decision again answers the first; the other one, a claim whose grab
   * has been paid since, and a number no claim has are refused.
   */
  @Test
  void resolveRefusedClaim_compensatesFromTheSystemOnce_orDismisses_andEndsTheReport() {
    Packet packet = sentByAlice(1_000, 3);
    for (String user : List.of(bob, carol, dave)) {
      packets()
          .recordRefusedClaim(
              new RefusedClaim(packet.id(), user, Amount.fen(300), "lost", T0.plusSeconds(5)));
    }
    Map<String, Long> ids =
        packets().openRefusedClaims(1_000).stream()
            .filter(open -> open.claim().packetId() == packet.id())
            .collect(
                java.util.stream.Collectors.toMap(
                    open -> open.claim().userId(), OpenRefusedClaim::id));
    assertThat(ids).containsOnlyKeys(bob, carol, dave);
    long bobs = ids.get(bob);
    Instant at = T0.plusSeconds(60);

    ClaimResolution paid =
        ledger().resolveRefusedClaim(bobs, ClaimDecision.COMPENSATE, "paid by hand", at).get();
    assertThat(paid)
        .isEqualTo(
            new ClaimResolution(
                bobs,
                packet.id(),
                bob,
                ClaimDecision.COMPENSATE,
                Amount.fen(300),
                "paid by hand",
                at));
    assertThat(
            ledger()
                .resolveRefusedClaim(bobs, ClaimDecision.COMPENSATE, "again", at.plusSeconds(1)))
        .as("the same decision again: the first resolution, nothing moved")
        .contains(paid);
    assertThatThrownBy(() -> ledger().resolveRefusedClaim(bobs, ClaimDecision.DISMISS, "no", at))
        .isInstanceOf(RejectedException.class)
        .extracting(e -> ((RejectedException) e).rejection())
        .isEqualTo(Rejection.CONFLICT);
    ClaimResolution dismissed =
        ledger()
            .resolveRefusedClaim(ids.get(carol), ClaimDecision.DISMISS, "not believed", at)
            .get();
    assertThat(dismissed.paid()).isEqualTo(Amount.ZERO);

    ledger().pay(List.of(task(packet, dave, 300)));
    assertThatThrownBy(
            () -> ledger().resolveRefusedClaim(ids.get(dave), ClaimDecision.COMPENSATE, "x", at))
        .as("dave's grab has been paid: compensated, he would be paid twice")
        .isInstanceOf(RejectedException.class)
        .extracting(e -> ((RejectedException) e).rejection())
        .isEqualTo(Rejection.CONFLICT);
    assertThat(ledger().resolveRefusedClaim(Long.MAX_VALUE, ClaimDecision.DISMISS, "x", at))
        .isEmpty();

    assertThat(balance(bob)).isEqualTo(Amount.fen(300));
    assertThat(balance(carol)).isEqualTo(Amount.ZERO);
    assertThat(audit().escrowBalance(packet.id()))
        .as("not out of the escrow")
        .isEqualTo(Amount.fen(700));
    assertThat(packets().paidGrabs(packet.id())).containsOnlyKeys(dave);
    assertThat(ledger().wallet(bob, 10).entries())
        .singleElement()
        .satisfies(
            entry -> {
              assertThat(entry.kind()).isEqualTo(EntryKind.COMPENSATION);
              assertThat(entry.packetId()).isEqualTo(packet.id());
            });
    assertThat(refusedUsers(packet)).isEmpty();
  }

  private List<String> refusedUsers(Packet packet) {
    return packets().refusedClaims(1_000).stream()
        .filter(claim -> claim.packetId() == packet.id())
        .map(RefusedClaim::userId)
        .toList();
  }

  @Test
  void pay_replayed_movesNothingTheSecondTime() {
    Packet packet = sentByAlice(1_000, 3);

    assertThat(ledger().pay(List.of(task(packet, bob, 300)))).isEqualTo(1);
    assertThat(ledger().pay(List.of(task(packet, bob, 300)))).isZero();

    assertThat(balance(bob)).isEqualTo(Amount.fen(300));
    assertThat(audit().escrowBalance(packet.id())).isEqualTo(Amount.fen(700));
    assertThat(packets().paidGrabs(packet.id())).isEqualTo(Map.of(bob, Amount.fen(300)));
  }

  /**
   * A claimed grab is paid only if the escrow keeps what the packet's other payouts are owed; one
   * already paid answers paid and moves nothing, whatever the escrow keeps.
   */
  @Test
  void payClaim_paysOnlyFromWhatTheEscrowSparesBeyondWhatItKeeps() {
    Packet packet = sentByAlice(1_000, 3);

    assertThat(ledger().payClaim(task(packet, bob, 300), Amount.fen(700)))
        .isEqualTo(ClaimPayment.PAID);
    assertThat(ledger().payClaim(task(packet, carol, 300), Amount.fen(401)))
        .as("700 left: 300 paid would leave 400, one fen short of what it keeps")
        .isEqualTo(ClaimPayment.NO_ROOM);
    assertThat(ledger().payClaim(task(packet, bob, 300), Amount.fen(1_000)))
        .as("bob's grab is paid already: a replay")
        .isEqualTo(ClaimPayment.PAID);

    assertThat(balance(bob)).isEqualTo(Amount.fen(300));
    assertThat(balance(carol)).isEqualTo(Amount.ZERO);
    assertThat(audit().escrowBalance(packet.id())).isEqualTo(Amount.fen(700));
    assertThat(packets().paidGrabs(packet.id())).isEqualTo(Map.of(bob, Amount.fen(300)));
  }

  /**
   * Once a sweeper has claimed the expired packet to close it, no claim of it is paid until it is
   * refunded, whatever room the escrow has, and a released claim does not end that; a grab paid
   * before still answers paid. After the refund, claims are weighed against the escrow again.
   */
  @Test
  void payClaim_betweenASweepersClaimAndTheRefund_isNotPaid_butAGrabPaidBeforeAnswersPaid() {
    Packet packet = sentByAlice(1_000, 3);
    assertThat(ledger().payClaim(task(packet, bob, 300), Amount.ZERO)).isEqualTo(ClaimPayment.PAID);
    Instant claimedUntil = packet.expiresAt().plusSeconds(30);

    assertThat(packets().claimExpired(packet.expiresAt(), claimedUntil, 1_000))
        .extracting(Packet::id)
        .contains(packet.id());
    assertThat(ledger().payClaim(task(packet, carol, 300), Amount.ZERO))
        .as("the sweeper closes it with what the ledger paid")
        .isEqualTo(ClaimPayment.CLOSING);
    packets().releaseClaims(List.of(packet.id()), claimedUntil);
    assertThat(ledger().payClaim(task(packet, carol, 300), Amount.ZERO))
        .as("released to be swept again, it is still being closed")
        .isEqualTo(ClaimPayment.CLOSING);
    assertThat(ledger().payClaim(task(packet, bob, 300), Amount.ZERO))
        .as("bob's grab is paid already: a replay")
        .isEqualTo(ClaimPayment.PAID);
    assertThat(balance(carol)).isEqualTo(Amount.ZERO);

    assertThat(ledger().refund(packet.id(), Amount.fen(400), packet.expiresAt())).isTrue();
    assertThat(ledger().payClaim(task(packet, carol, 300), Amount.fen(1)))
        .as("refunded: 300 left, one fen short of what it keeps")
        .isEqualTo(ClaimPayment.NO_ROOM);
    assertThat(ledger().payClaim(task(packet, carol, 300), Amount.ZERO))
        .isEqualTo(ClaimPayment.PAID);
    assertThat(balance(carol)).isEqualTo(Amount.fen(300));
    assertThat(audit().escrowBalance(packet.id())).isEqualTo(Amount.ZERO);
    assertThat(packets().paidGrabs(packet.id()))
        .isEqualTo(Map.of(bob, Amount.fen(300), carol, Amount.fen(300)));
  }

  @Test
  void pay_beyondTheEscrow_refusesTheWholeBatch() {
    Packet packet = sentByAlice(500, 2);

    assertThatThrownBy(
            () -> ledger().pay(List.of(task(packet, bob, 300), task(packet, carol, 300))))
        .isInstanceOf(PayoutRefused.class);
    assertThatThrownBy(
            () ->
                ledger()
                    .pay(
                        List.of(
                            task(packet, bob, 1), task(packet, carol, 1), task(packet, dave, 1))))
        .as("more shares than the count")
        .isInstanceOf(PayoutRefused.class);

    assertThat(balance(bob)).isEqualTo(Amount.ZERO);
    assertThat(audit().escrowBalance(packet.id())).isEqualTo(Amount.fen(500));
  }

  /**
   * A task whose transfer was posted with another amount or grab time is a second share of the
   * packet for the same user, not a replay: refused (whole batch), so that it is reported rather
   * than dropped. A replay (same amount, same grab time) moves nothing.
   */
  @Test
  void pay_ofAnotherShareUnderAPaidKey_isRefused_notSkippedAsAReplay() {
    Packet packet = sentByAlice(1_000, 3);
    ledger().pay(List.of(task(packet, bob, 300)));

    assertThatThrownBy(
            () -> ledger().pay(List.of(task(packet, carol, 100), task(packet, bob, 500))))
        .isInstanceOf(PayoutRefused.class)
        .hasMessageContaining("was paid 300 fen grabbed at")
        .hasMessageContaining("this task pays 500 fen grabbed at");
    // An equal share grabbed again (a FIXED packet's shares are all equal): another time.
    var again = new PayoutTask(packet.id(), bob, Amount.fen(300), T0.plusSeconds(9), "tag");
    assertThatThrownBy(() -> ledger().pay(List.of(again)))
        .isInstanceOf(PayoutRefused.class)
        .hasMessageContaining("this task pays 300 fen grabbed at " + T0.plusSeconds(9));
    assertThatThrownBy(
            () -> ledger().pay(List.of(task(packet, carol, 100), task(packet, carol, 200))))
        .as("two amounts for one key in a batch")
        .isInstanceOf(PayoutRefused.class);
    assertThat(balance(carol)).isEqualTo(Amount.ZERO);
    assertThat(ledger().pay(List.of(task(packet, bob, 300)))).as("a true replay").isZero();
    assertThat(balance(bob)).isEqualTo(Amount.fen(300));
    assertThat(audit().escrowBalance(packet.id())).isEqualTo(Amount.fen(700));
  }

  /**
   * A task grabbed from an older packet under the same id (the ledger, restored from a backup,
   * handed the id out again while the grab store still queued that packet's payout) says when its
   * packet was created: not this escrow's packet, so the newer packet's money must not pay it. A
   * task that does not say (queued by an older version, claimed from a receipt sealed before
   * version 2) is not checked.
   */
  @Test
  void pay_ofATaskFromAnotherPacketUnderTheId_isRefused_oneThatDoesNotSayIsPaid() {
    Packet packet = sentByAlice(500, 3);
    Instant older = T0.minusSeconds(1);

    assertThatThrownBy(
            () ->
                ledger()
                    .pay(
                        List.of(
                            task(packet, carol, 100),
                            new PayoutTask(
                                packet.id(), bob, Amount.fen(200), older, "tag", older))))
        .isInstanceOf(PayoutRefused.class)
        .hasMessageContaining("for another packet");
    assertThat(balance(bob)).isEqualTo(Amount.ZERO);
    assertThat(balance(carol)).isEqualTo(Amount.ZERO);
    assertThat(audit().escrowBalance(packet.id())).isEqualTo(Amount.fen(500));

    var itsOwn = new PayoutTask(packet.id(), bob, Amount.fen(200), T0.plusSeconds(1), "tag", T0);
    var notSaying = new PayoutTask(packet.id(), dave, Amount.fen(100), older, "tag");
    assertThat(ledger().pay(List.of(itsOwn, notSaying))).isEqualTo(2);
    assertThat(balance(bob)).isEqualTo(Amount.fen(200));
    assertThat(balance(dave)).isEqualTo(Amount.fen(100));
  }

  @Test
  void send_beyondTheWallet_isRefused_andMovesNothing() {
    topUp(alice, 100);

    assertThatThrownBy(() -> send(alice, 101, 1))
        .isInstanceOfSatisfying(
            RejectedException.class,
            e -> assertThat(e.rejection()).isEqualTo(Rejection.INSUFFICIENT_FUNDS));
    assertThat(balance(alice)).isEqualTo(Amount.fen(100));
  }

  @Test
  void refund_happensOnce_andNeverMoreThanTheEscrow() {
    Packet packet = sentByAlice(1_000, 2);
    ledger().pay(List.of(task(packet, bob, 400)));

    assertThat(ledger().refund(packet.id(), Amount.fen(900), T0.plus(Duration.ofDays(1)))).isTrue();
    assertThat(ledger().refund(packet.id(), Amount.fen(600), T0.plus(Duration.ofDays(1))))
        .isFalse();

    assertThat(balance(alice)).isEqualTo(Amount.fen(600));
    assertThat(audit().escrowBalance(packet.id())).isEqualTo(Amount.ZERO);
    assertThat(packets().refunded(packet.id())).isEqualTo(Amount.fen(600));
  }

  @Test
  void idempotencyKey_isTakenOnce() {
    topUp(alice, 1_000);
    IdempotencyKey key = key(alice, "send");
    Packet first = send(alice, 10, 1);
    var answer = new StoredAnswer(key.requestHash(), "CREATED", "{}");
    var packet =
        new Packet(
            ledger().nextPacketId(),
            alice,
            PacketType.LUCKY,
            Amount.fen(10),
            1,
            null,
            null,
            List.of(),
            T0,
            T0.plus(Duration.ofDays(1)));
    ledger().send(packet, key, answer);

    assertThat(ledger().answerFor(key)).contains(answer);
    var again =
        new Packet(
            ledger().nextPacketId(),
            alice,
            PacketType.LUCKY,
            Amount.fen(10),
            1,
            null,
            null,
            List.of(),
            T0,
            T0.plus(Duration.ofDays(1)));
    assertThatThrownBy(() -> ledger().send(again, key, answer))
        .isInstanceOf(IdempotencyRaceException.class);
    assertThat(balance(alice)).isEqualTo(Amount.fen(980));
    assertThat(packets().find(first.id())).isPresent();
  }
}
