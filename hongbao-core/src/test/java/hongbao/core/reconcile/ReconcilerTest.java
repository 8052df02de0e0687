package hongbao.core.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import hongbao.core.Invariants;
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
import hongbao.core.ops.Violations;
import hongbao.core.packet.GrabView;
import hongbao.core.packet.OpenRefusedClaim;
import hongbao.core.packet.Packet;
import hongbao.core.packet.PacketStore;
import hongbao.core.packet.PacketType;
import hongbao.core.packet.RefusedClaim;
import hongbao.core.packet.StuckRefund;
import hongbao.core.payout.DeadLetter;
import hongbao.core.payout.PayoutQueue;
import hongbao.core.payout.PayoutTask;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.function.IntFunction;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The reconciler against hand-built books: it must pass consistent books and name each kind of
 * discrepancy, or it proves nothing.
 */
class ReconcilerTest {

  private static final Instant NOW = Instant.parse("2026-11-21T08:00:00Z");

  private final Books books = new Books();
  private final Reconciler reconciler =
      new Reconciler(books, books, books, books, Clock.fixed(NOW, ZoneOffset.UTC));

  private static Packet packet(long id, long amount, int count) {
    return new Packet(
        id,
        "alice",
        PacketType.LUCKY,
        Amount.fen(amount),
        count,
        null,
        null,
        List.of(),
        NOW.minusSeconds(60),
        NOW.plus(Duration.ofHours(1)));
  }

  /** Packet 1: 1000 fen in 3 shares, two grabbed (300 paid to bob, 200 unpaid to carol). */
  private void consistentBooks() {
    books.packets.add(packet(1, 1000, 3));
    books.escrow.put(1L, Amount.fen(700));
    books.paid.put(1L, new HashMap<>(Map.of("bob", Amount.fen(300))));
    books.states.put(
        1L,
        new PacketState(
            1,
            Amount.fen(1000),
            3,
            2,
            Amount.fen(500),
            Amount.fen(500),
            false,
            Amount.ZERO,
            null,
            List.of(
                new GrabRecord("bob", Amount.fen(300), NOW, 1),
                new GrabRecord("carol", Amount.fen(200), NOW, 2))));
  }

  @Test
  void consistentBooks_reconcile() {
    consistentBooks();
    Reconciliation result = reconciler.reconcile();
    assertThat(result.discrepancies()).isEmpty();
    assertThat(result.ok()).isTrue();
    assertThat(result.packetsChecked()).isEqualTo(1);
  }

  @Test
  void escrowOffByOneFen_isReported() {
    consistentBooks();
    books.escrow.put(1L, Amount.fen(699));
    assertThat(reconciler.reconcile().discrepancies())
        .singleElement()
        .asString()
        .contains("packet 1: escrow holds 699 fen, expected 700 fen");
  }

  @Test
  void paymentWithoutAGrab_orOfAnotherAmount_isReported() {
    consistentBooks();
    books.paid.get(1L).put("mallory", Amount.fen(1));
    books.paid.get(1L).put("bob", Amount.fen(301));
    books.escrow.put(1L, Amount.fen(698));
    assertThat(reconciler.reconcile().discrepancies())
        .anySatisfy(d -> assertThat(d).contains("mallory was paid without a recorded grab"))
        .anySatisfy(d -> assertThat(d).contains("bob grabbed 300 fen but was paid 301 fen"));
  }

  @Test
  void aShareThatVanished_breaksTheEquation() {
    consistentBooks();
    PacketState state = books.states.get(1L);
    books.states.put(
        1L,
        new PacketState(
            1,
            state.total(),
            3,
            2,
            state.takenAmount(),
            Amount.fen(400),
            false,
            Amount.ZERO,
            null,
            state.grabs()));
    assertThat(reconciler.reconcile().discrepancies())
        .singleElement()
        .asString()
        .contains(
            "amount 1000 fen != paid 300 fen + unpaid 200 fen + refunded 0 fen + available 400");
  }

  @Test
  void deadLetters_andAccountProblems_areReported() {
    consistentBooks();
    books.dead.add(
        new DeadLetter(new PayoutTask(1, "carol", Amount.fen(200), NOW, "tag"), "refused"));
    books.accountProblems.add("wallet:bob balance 5 != transfers 0");
    assertThat(reconciler.reconcile().discrepancies())
        .containsExactly(
            "wallet:bob balance 5 != transfers 0",
            "packet 1: payout of 200 fen to carol was dead-lettered: refused");
  }

  @Test
  void aGrabUnpaidForTooLong_isReported() {
    consistentBooks();
    Reconciler later =
        new Reconciler(
            books,
            books,
            books,
            books,
            Clock.fixed(NOW.plus(Duration.ofMinutes(6)), ZoneOffset.UTC),
            Reconciler.Limits.DEFAULTS,
            new Violations());
    assertThat(later.reconcile().discrepancies())
        .containsExactly("packet 1: carol grabbed 200 fen at " + NOW + " and is still unpaid");
  }

  @Test
  void stuckRefunds_heldPackets_refusedClaims_backlog_andViolations_areReported() {
    consistentBooks();
    books.stuck.add(new StuckRefund(7, NOW.minusSeconds(600), Amount.fen(500), 3, "boom", null));
    books.stuck.add(new StuckRefund(8, NOW.minusSeconds(600), Amount.fen(40), 0, null, "reused"));
    books.refused.add(new RefusedClaim(9, "dave", Amount.fen(12), "sold out", NOW));
    books.backlog = 2_000_000;
    var violations = new Violations();
    violations.record("payout-0", new Invariants.InvariantViolation("escrow negative"));
    var strict =
        new Reconciler(
            books,
            books,
            books,
            books,
            Clock.fixed(NOW, ZoneOffset.UTC),
            Reconciler.Limits.DEFAULTS,
            violations);
    assertThat(strict.reconcile().discrepancies())
        .containsExactly(
            "packet 7: expired at "
                + NOW.minusSeconds(600)
                + " and not refunded: escrow holds 500 fen (3 attempts; last: boom)",
            "packet 8: held, escrow holds 40 fen: reused",
            "packet 9: receipt of dave for 12 fen refused: sold out",
            "payout backlog of 2000000 tasks exceeds 1000000",
            "invariant violation stopped payout-0: escrow negative");
  }

  @Test
  void aTombstoneThatClaimedMoreThanTheEscrowHeld_isReported() {
    Packet expired =
        new Packet(
            2,
            "alice",
            PacketType.LUCKY,
            Amount.fen(1000),
            3,
            null,
            null,
            List.of(),
            NOW.minusSeconds(120),
            NOW.minusSeconds(60));
    books.packets.add(expired);
    books.paid.put(2L, Map.of("bob", Amount.fen(300)));
    books.refundedAmounts.put(2L, Amount.fen(700));
    books.states.put(
        2L,
        new PacketState(
            2,
            Amount.fen(1000),
            0,
            0,
            Amount.ZERO,
            Amount.ZERO,
            true,
            Amount.fen(1000),
            null,
            List.of()));
    assertThat(reconciler.reconcile().discrepancies())
        .containsExactly(
            "packet 2: the close claimed 1000 fen but the escrow had only 700 fen to refund");
  }

  /**
   * Closed while its keys were gone, its remainder all owed to a dead-lettered payout: the close
   * refunded 0 fen and the escrow still holds that payout's money. Reported by the packet's own
   * numbers, not only by the dead letter, which Redis could lose.
   */
  @Test
  void aTombstoneClosedWithNothingToRefund_whoseEscrowStillHoldsMoney_isReported() {
    Packet expired =
        new Packet(
            7,
            "alice",
            PacketType.FIXED,
            Amount.fen(600),
            2,
            null,
            null,
            List.of(),
            NOW.minusSeconds(120),
            NOW.minusSeconds(60));
    books.packets.add(expired);
    books.paid.put(7L, Map.of("bob", Amount.fen(300)));
    books.escrow.put(7L, Amount.fen(300));
    books.closed.add(7L);
    books.states.put(
        7L,
        new PacketState(
            7, Amount.ZERO, 0, 0, Amount.ZERO, Amount.ZERO, true, Amount.ZERO, null, List.of()));
    assertThat(reconciler.reconcile().discrepancies())
        .containsExactly(
            "packet 7: grab records are gone but paid 300 fen + refunded 0 fen != amount 600 fen");

    books.paid.put(7L, Map.of("bob", Amount.fen(300), "carol", Amount.fen(300)));
    books.escrow.put(7L, Amount.ZERO);
    assertThat(reconciler.reconcile().discrepancies()).isEmpty();
  }

  @Test
  void aPacketPaidOutWhole_whoseKeysAgedOut_isSettled_butOneWithMoneyLeftIsReported() {
    for (long id : new long[] {3, 4}) {
      books.packets.add(
          new Packet(
              id,
              "alice",
              PacketType.LUCKY,
              Amount.fen(1000),
              2,
              null,
              null,
              List.of(),
              NOW.minus(Duration.ofDays(8)),
              NOW.minus(Duration.ofDays(7))));
    }
    books.paid.put(3L, Map.of("bob", Amount.fen(400), "carol", Amount.fen(600)));
    books.paid.put(4L, Map.of("bob", Amount.fen(400)));
    books.escrow.put(4L, Amount.fen(600));

    assertThat(reconciler.reconcile().discrepancies())
        .containsExactly("packet 4: expired, not refunded, and its grab records are gone");
  }

  /**
   * Every share grabbed, none paid yet, the close's refund moved 0 fen; then Redis lost the grabs
   * and their payout tasks. The escrow holds the whole amount for the receipts, and only the
   * ledger's close tells it from a packet never armed that waits for its refund.
   */
  @Test
  void aClosedPacketWhoseUnpaidGrabsRedisLost_isReported_butOneWaitingForItsRefundIsNot() {
    for (long id : new long[] {5, 6}) {
      books.packets.add(
          new Packet(
              id,
              "alice",
              PacketType.FIXED,
              Amount.fen(1000),
              2,
              null,
              null,
              List.of(),
              NOW.minus(Duration.ofDays(8)),
              NOW.minus(Duration.ofDays(7))));
      books.escrow.put(id, Amount.fen(1000));
    }
    books.closed.add(5L);

    assertThat(reconciler.reconcile().discrepancies())
        .containsExactly("packet 5: expired, not refunded, and its grab records are gone");
  }

  @Test
  void aRefundedPacketWhoseCloseTheStoreLost_isSettled_unlessTheNumbersDisagree() {
    for (long id : new long[] {5, 6}) {
      books.packets.add(
          new Packet(
              id,
              "alice",
              PacketType.LUCKY,
              Amount.fen(1000),
              3,
              null,
              null,
              List.of(),
              NOW.minusSeconds(120),
              NOW.minusSeconds(60)));
      books.paid.put(id, Map.of("bob", Amount.fen(300)));
      books.refundedAmounts.put(id, Amount.fen(700));
    }
    var bob = new GrabRecord("bob", Amount.fen(300), NOW.minusSeconds(100), 1);
    // Open in the store: its close was lost; what the close took back is still "available".
    books.states.put(
        5L,
        new PacketState(
            5,
            Amount.fen(1000),
            3,
            1,
            Amount.fen(300),
            Amount.fen(700),
            false,
            Amount.ZERO,
            null,
            List.of(bob)));
    books.states.put(
        6L,
        new PacketState(
            6,
            Amount.fen(1000),
            3,
            1,
            Amount.fen(300),
            Amount.fen(600),
            false,
            Amount.ZERO,
            null,
            List.of(bob)));

    assertThat(reconciler.reconcile().discrepancies())
        .containsExactly(
            "packet 6: amount 1000 fen != paid 300 fen + unpaid 0 fen + refunded 700 fen"
                + " + available 600 fen");
  }

  /** A clock the test moves forward by hand. */
  private static final class HandClock extends Clock {
    Instant now = NOW;

    @Override
    public Instant instant() {
      return now;
    }

    @Override
    public java.time.ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }
  }

  /** Packet {@code id}: 1000 fen in 3 shares, two grabbed and paid, as consistent books. */
  private void settledPacket(long id) {
    books.packets.add(packet(id, 1000, 3));
    books.escrow.put(id, Amount.fen(500));
    books.paid.put(id, new HashMap<>(Map.of("bob", Amount.fen(300), "carol", Amount.fen(200))));
    books.states.put(
        id,
        new PacketState(
            id,
            Amount.fen(1000),
            3,
            2,
            Amount.fen(500),
            Amount.fen(500),
            false,
            Amount.ZERO,
            null,
            List.of(
                new GrabRecord("bob", Amount.fen(300), NOW, 1),
                new GrabRecord("carol", Amount.fen(200), NOW, 2))));
  }

  @Test
  void watermark_aDiscrepancyBeforeItIsFoundByAFullRun_oneAfterItIncrementally() {
    var clock = new HandClock();
    var watermarked = new Reconciler(books, books, books, books, clock);
    settledPacket(1);
    settledPacket(2);
    assertThat(watermarked.watermark()).isEmpty();
    clock.now = NOW.plus(Duration.ofMinutes(10));
    Reconciliation first = watermarked.reconcileChanges();
    assertThat(first.ok()).isTrue();
    assertThat(first.packetsChecked()).as("no watermark yet: a full run").isEqualTo(2);
    assertThat(watermarked.watermark())
        .contains(NOW.plus(Duration.ofMinutes(10)).minus(Reconciler.WATERMARK_OVERLAP));

    clock.now = NOW.plus(Duration.ofHours(1));
    // Packet 1 goes wrong without moving (a silent corruption, before the watermark); packet 2
    // moves after it and goes wrong with the move.
    books.escrow.put(1L, Amount.fen(499));
    books.escrow.put(2L, Amount.fen(498));
    books.touched.put(2L, NOW.plus(Duration.ofMinutes(30)));

    Reconciliation changes = watermarked.reconcileChanges();
    assertThat(changes.packetsChecked()).isEqualTo(1);
    assertThat(changes.discrepancies())
        .singleElement()
        .asString()
        .contains("packet 2: escrow holds 498 fen");
    assertThat(watermarked.watermark()).as("a run that found something forgets it").isEmpty();

    Reconciliation full = watermarked.reconcile();
    assertThat(full.packetsChecked()).isEqualTo(2);
    assertThat(full.discrepancies())
        .anySatisfy(d -> assertThat(d).contains("packet 1: escrow holds 499 fen"))
        .anySatisfy(d -> assertThat(d).contains("packet 2: escrow holds 498 fen"));
    assertThat(watermarked.reconcileChanges().packetsChecked())
        .as("without a watermark the periodic run is full again")
        .isEqualTo(2);
  }

  @Test
  void watermark_afterACleanRun_skipsPacketsThatDidNotMove() {
    var clock = new HandClock();
    var watermarked = new Reconciler(books, books, books, books, clock);
    settledPacket(1);
    assertThat(watermarked.reconcile().ok()).isTrue();
    // The packet was created a minute before that run: exactly at its watermark, so still checked.
    clock.now = NOW.plus(Duration.ofHours(1));
    assertThat(watermarked.reconcileChanges().packetsChecked()).isEqualTo(1);
    clock.now = NOW.plus(Duration.ofHours(2));
    assertThat(watermarked.reconcileChanges().packetsChecked()).isZero();
    assertThat(watermarked.watermark())
        .contains(NOW.plus(Duration.ofHours(2)).minus(Reconciler.WATERMARK_OVERLAP));
  }

  /**
   * A grab left unpaid on a packet that nothing touched since (payouts off, say): no run of the
   * changes picks its packet, so only the payout queue can tell that the share still waits.
   */
  @Test
  void watermark_aGrabUnpaidOnAPacketThatDidNotMove_isFoundThroughThePayoutQueue() {
    var clock = new HandClock();
    var watermarked = new Reconciler(books, books, books, books, clock);
    consistentBooks(); // carol's 200 fen, grabbed at NOW, unpaid
    books.heads.add(new PayoutTask(1, "carol", Amount.fen(200), NOW, "tag"));
    clock.now = NOW.plus(Duration.ofMinutes(2));
    assertThat(watermarked.reconcile().ok()).as("not unpaid for long yet").isTrue();

    clock.now = NOW.plus(Duration.ofHours(1));
    Reconciliation changes = watermarked.reconcileChanges();

    String unpaid = "packet 1: carol grabbed 200 fen at " + NOW + " and is still unpaid";
    assertThat(changes.packetsChecked()).isZero();
    assertThat(changes.discrepancies()).containsExactly(unpaid);
    assertThat(watermarked.reconcileChanges().discrepancies())
        .as("the full run that follows names it from its packet, once")
        .containsExactly(unpaid);
  }

  /**
   * The task at the head of the queue was paid, but its acknowledgement was lost (a crash, with
   * payouts then switched off, which stops the reclaim): the packet's check finds it paid, so no
   * run of the changes names it.
   */
  @Test
  void watermark_aPaidTaskLeftInTheQueue_isNotReportedAsUnpaid() {
    var clock = new HandClock();
    var watermarked = new Reconciler(books, books, books, books, clock);
    settledPacket(1);
    books.heads.add(new PayoutTask(1, "carol", Amount.fen(200), NOW, "tag"));
    clock.now = NOW.plus(Duration.ofMinutes(2));
    assertThat(watermarked.reconcile().ok()).isTrue();

    clock.now = NOW.plus(Duration.ofHours(1));
    Reconciliation changes = watermarked.reconcileChanges();

    assertThat(changes.discrepancies()).isEmpty();
    assertThat(watermarked.watermark()).isPresent();

    // A stream behind it holds a share unpaid for as long, of a packet the ledger no longer knows
    // (its row lost with a restore): named as the task says, by the full run after it too.
    books.heads.add(new PayoutTask(9, "dave", Amount.fen(50), NOW, "tag"));
    clock.now = NOW.plus(Duration.ofHours(2));
    String unknown = "packet 9: dave grabbed 50 fen at " + NOW + " and is still unpaid";
    assertThat(watermarked.reconcileChanges().discrepancies()).containsExactly(unknown);
    assertThat(watermarked.reconcileChanges().discrepancies())
        .as("the full run that follows")
        .containsExactly(unknown);
    assertThat(watermarked.watermark()).isEmpty();
  }

  /**
   * More stale heads than a run checks: paid tasks whose acknowledgements were lost, in the streams
   * before one whose head is a share still unpaid. The runs start further along the heads each
   * time, so the unpaid one comes up within a few runs and is named.
   */
  @Test
  void watermark_anUnpaidHeadBehindManyPaidOnes_comesUpInTurn() {
    var clock = new HandClock();
    var watermarked = new Reconciler(books, books, books, books, clock);
    for (long id = 1; id <= 30; id++) {
      settledPacket(id);
      books.heads.add(new PayoutTask(id, "carol", Amount.fen(200), NOW, "tag"));
    }
    books.packets.add(packet(31, 1000, 3));
    books.escrow.put(31L, Amount.fen(1000));
    books.paid.put(31L, new HashMap<>());
    books.states.put(
        31L,
        new PacketState(
            31,
            Amount.fen(1000),
            3,
            1,
            Amount.fen(100),
            Amount.fen(900),
            false,
            Amount.ZERO,
            null,
            List.of(new GrabRecord("erin", Amount.fen(100), NOW, 1))));
    books.heads.add(new PayoutTask(31, "erin", Amount.fen(100), NOW, "tag"));
    clock.now = NOW.plus(Duration.ofMinutes(2));
    assertThat(watermarked.reconcile().ok()).isTrue();

    String unpaid = "packet 31: erin grabbed 100 fen at " + NOW + " and is still unpaid";
    var found = new ArrayList<String>();
    for (int run = 0; run < 31 && found.isEmpty(); run++) {
      clock.now = NOW.plus(Duration.ofHours(1 + run));
      found.addAll(watermarked.reconcileChanges().discrepancies());
    }
    assertThat(found).containsExactly(unpaid);
  }

  /**
   * Far more long-waiting heads than a run checks, paid ones, and one of a packet the ledger does
   * not know: every run names that one, incremental or full.
   */
  @Test
  void aTaskOfAnUnknownPacket_isNamedByEveryRun_howeverManyHeadsWait() {
    var clock = new HandClock();
    var watermarked = new Reconciler(books, books, books, books, clock);
    for (long id = 1; id <= 150; id++) {
      settledPacket(id);
      books.heads.add(new PayoutTask(id, "carol", Amount.fen(200), NOW, "tag"));
    }
    books.heads.add(new PayoutTask(999, "dave", Amount.fen(50), NOW, "tag"));
    clock.now = NOW.plus(Duration.ofMinutes(10));
    String unknown = "packet 999: dave grabbed 50 fen at " + NOW + " and is still unpaid";

    for (int run = 0; run < 10; run++) {
      clock.now = clock.now.plus(Duration.ofHours(1));
      Reconciliation result =
          run % 2 == 0 ? watermarked.reconcile() : watermarked.reconcileChanges();
      assertThat(result.discrepancies()).as("run %d", run).containsExactly(unknown);
    }
  }

  /** Hand-built books behind every port the reconciler reads. */
  private static final class Books implements LedgerAudit, PacketStore, GrabStore, PayoutQueue {
    final List<Packet> packets = new ArrayList<>();

    /** When each packet's books last moved; its creation when absent. */
    final Map<Long, Instant> touched = new HashMap<>();

    final Map<Long, Amount> escrow = new HashMap<>();
    final Map<Long, Map<String, Amount>> paid = new HashMap<>();
    final Map<Long, PacketState> states = new HashMap<>();
    final List<DeadLetter> dead = new ArrayList<>();
    final List<String> accountProblems = new ArrayList<>();
    final List<StuckRefund> stuck = new ArrayList<>();
    final List<RefusedClaim> refused = new ArrayList<>();
    final Map<Long, Amount> refundedAmounts = new HashMap<>();
    final Set<Long> closed = new HashSet<>();
    long backlog;
    final List<PayoutTask> heads = new ArrayList<>();

    @Override
    public List<Packet> packets(long afterId, int limit) {
      return packets.stream().filter(p -> p.id() > afterId).limit(limit).toList();
    }

    @Override
    public List<Packet> packetsTouchedSince(Instant since, long afterId, int limit) {
      return packets.stream()
          .filter(p -> p.id() > afterId)
          .filter(p -> !touched.getOrDefault(p.id(), p.createdAt()).isBefore(since))
          .limit(limit)
          .toList();
    }

    @Override
    public Amount escrowBalance(long packetId) {
      return escrow.getOrDefault(packetId, Amount.ZERO);
    }

    @Override
    public List<String> accountProblems() {
      return accountProblems;
    }

    @Override
    public Map<String, Amount> paidGrabs(long packetId) {
      return paid.getOrDefault(packetId, Map.of());
    }

    @Override
    public Amount refunded(long packetId) {
      return refundedAmounts.getOrDefault(packetId, Amount.ZERO);
    }

    @Override
    public List<StuckRefund> stuckRefunds(Instant expiredBefore, int limit) {
      return stuck;
    }

    @Override
    public List<OpenRefusedClaim> openRefusedClaims(int limit) {
      return refused.stream().map(claim -> new OpenRefusedClaim(1, claim)).toList();
    }

    @Override
    public long backlog() {
      return backlog;
    }

    @Override
    public List<PayoutTask> waitingHeads(Instant grabbedBefore, int max) {
      return heads.stream().filter(t -> t.grabbedAt().isBefore(grabbedBefore)).limit(max).toList();
    }

    @Override
    public Optional<PacketState> state(long packetId) {
      return Optional.ofNullable(states.get(packetId));
    }

    @Override
    public List<DeadLetter> deadLetters(int max) {
      return dead;
    }

    // Not read by the reconciler.
    @Override
    public boolean redrive(String deadLetterId) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Optional<Packet> find(long packetId) {
      return packets.stream().filter(p -> p.id() == packetId).findFirst();
    }

    @Override
    public List<Packet> sentBy(String userId, Long beforeId, int limit) {
      throw new UnsupportedOperationException();
    }

    @Override
    public List<Long> paidTo(String userId, Long beforeId, int limit) {
      throw new UnsupportedOperationException();
    }

    @Override
    public List<Packet> unarmed(Instant createdBefore, Instant now, int limit) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void markArmed(long packetId) {
      throw new UnsupportedOperationException();
    }

    @Override
    public List<Packet> claimExpired(Instant now, Instant until, int limit) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void releaseClaims(Collection<Long> packetIds, Instant until) {
      throw new UnsupportedOperationException();
    }

    @Override
    public List<GrabView> paidGrabViews(long packetId) {
      throw new UnsupportedOperationException();
    }

    @Override
    public CompletionStage<GrabOutcome> grab(GrabAttempt attempt) {
      throw new UnsupportedOperationException();
    }

    @Override
    public ArmResult arm(ArmedPacket packet, Instant now) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Closing close(
        long packetId, Instant packetCreatedAt, Amount amountIfMissing, Instant now) {
      throw new UnsupportedOperationException();
    }

    @Override
    public List<Recovered> recover(long packetId, List<GrabRecord> grabs, boolean claimed) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Optional<Map<String, Amount>> owedToOthers(
        long packetId, Instant packetCreatedAt, String userId) {
      throw new UnsupportedOperationException();
    }

    @Override
    public boolean hold(long packetId, Instant createdAt) {
      throw new UnsupportedOperationException();
    }

    @Override
    public String generation() {
      throw new UnsupportedOperationException();
    }

    @Override
    public void markHeld(long packetId, String reason) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Set<Long> heldAmong(Collection<Long> packetIds) {
      return Set.of();
    }

    @Override
    public Set<Long> knownAmong(Collection<Long> packetIds) {
      return packets.stream()
          .map(Packet::id)
          .filter(packetIds::contains)
          .collect(Collectors.toSet());
    }

    @Override
    public Set<Long> closedAmong(Collection<Long> packetIds) {
      return packetIds.stream().filter(closed::contains).collect(Collectors.toSet());
    }

    @Override
    public List<Packet> open(long afterId, int limit) {
      throw new UnsupportedOperationException();
    }

    @Override
    public int postponeRefund(long packetId, IntFunction<Instant> retryAt, String reason) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void recordRefusedClaim(RefusedClaim claim) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void deadLetter(PayoutTask task, String reason) {
      throw new UnsupportedOperationException();
    }

    @Override
    public int removeIdleConsumers(Duration idle) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Map<Long, Amount> pendingOf(String userId) {
      throw new UnsupportedOperationException();
    }

    @Override
    public List<PayoutTask> poll(String consumer, int max, Duration wait) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void ack(List<PayoutTask> tasks) {
      throw new UnsupportedOperationException();
    }

    @Override
    public List<PayoutTask> reclaim(String consumer, Duration minIdle, int maxDeliveries, int max) {
      throw new UnsupportedOperationException();
    }
  }
}
