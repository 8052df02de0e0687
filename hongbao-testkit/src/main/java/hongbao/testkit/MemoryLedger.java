package hongbao.testkit;

import hongbao.core.Invariants;
import hongbao.core.RejectedException;
import hongbao.core.Rejection;
import hongbao.core.ledger.ClaimPayment;
import hongbao.core.ledger.EntryKind;
import hongbao.core.ledger.IdempotencyKey;
import hongbao.core.ledger.IdempotencyRaceException;
import hongbao.core.ledger.Ledger;
import hongbao.core.ledger.StoredAnswer;
import hongbao.core.ledger.Wallet;
import hongbao.core.ledger.WalletEntry;
import hongbao.core.ledger.WalletSnapshot;
import hongbao.core.money.Amount;
import hongbao.core.packet.ClaimDecision;
import hongbao.core.packet.ClaimResolution;
import hongbao.core.packet.Packet;
import hongbao.core.packet.RefusedClaim;
import hongbao.core.payout.PayoutRefused;
import hongbao.core.payout.PayoutTask;
import hongbao.testkit.MemoryBooks.PacketRow;
import hongbao.testkit.MemoryBooks.RefusedClaimRow;
import hongbao.testkit.MemoryBooks.Transfer;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The ledger in memory, refusing what PostgreSQL's constraints refuse: a transfer key posted twice
 * moves nothing (a replayed payout is skipped), a wallet cannot pay more than it holds, an escrow
 * cannot pay more than its amount or its count of shares (the whole batch is refused, as the
 * transaction is rolled back), a packet is refunded once and never more than its escrow holds.
 * Every call is one transaction.
 */
public class MemoryLedger implements Ledger {

  /** The same bound as PostgreSQL's ledger. */
  public static final int PAY_BATCH_MAX = 5_000;

  private static final int WALLET_ENTRIES_MAX = 1_000;

  private final MemoryBooks books;
  private final Clock clock;

  public MemoryLedger(MemoryBooks books, Clock clock) {
    this.books = books;
    this.clock = clock;
  }

  /**
   * Whether a payout whose transfer key is already posted is skipped. Only the planted bug of the
   * simulator's self-test answers otherwise.
   */
  protected boolean skipsPaidTransfer() {
    return true;
  }

  @Override
  public long nextPacketId() {
    synchronized (books) {
      books.checkUp();
      return ++books.sequence;
    }
  }

  @Override
  public void send(Packet packet, IdempotencyKey key, StoredAnswer answer) {
    Invariants.check(packet.amount().isPositive(), "packet %d amount not positive", packet.id());
    synchronized (books) {
      books.checkUp();
      claimKey(key);
      String wallet = MemoryBooks.wallet(packet.sender());
      long fen = packet.amount().fen();
      if (books.balance(wallet) < fen) {
        throw new RejectedException(
            Rejection.INSUFFICIENT_FUNDS, "the wallet holds less than " + packet.amount());
      }
      if (books.packets.containsKey(packet.id())) {
        throw new IllegalStateException("duplicate key: packet " + packet.id());
      }
      String escrow = MemoryBooks.escrow(packet.id());
      books.sharesLeft.put(escrow, packet.count());
      books.post(
          new Transfer(
              "send:" + packet.id(),
              EntryKind.SEND,
              wallet,
              escrow,
              fen,
              packet.id(),
              packet.sender(),
              packet.createdAt()));
      books.packets.put(packet.id(), new PacketRow(packet));
      books.answers.put(keyOf(key), answer);
    }
  }

  private void claimKey(IdempotencyKey key) {
    if (books.answers.containsKey(keyOf(key))) {
      throw new IdempotencyRaceException("idempotency key " + key.key() + " is stored already");
    }
  }

  static String keyOf(IdempotencyKey key) {
    return key.userId() + "\u0000" + key.endpoint() + "\u0000" + key.key();
  }

  @Override
  public StoredAnswer topUp(
      String userId, Amount amount, IdempotencyKey key, Function<Amount, StoredAnswer> answer) {
    Invariants.check(amount.isPositive(), "top-up of %s", amount);
    synchronized (books) {
      books.checkUp();
      claimKey(key);
      String wallet = MemoryBooks.wallet(userId);
      books.post(
          new Transfer(
              "topup:" + keyOf(key),
              EntryKind.TOPUP,
              MemoryBooks.SYSTEM,
              wallet,
              amount.fen(),
              null,
              userId,
              clock.instant()));
      StoredAnswer stored = answer.apply(Amount.fen(books.balance(wallet)));
      books.answers.put(keyOf(key), stored);
      return stored;
    }
  }

  @Override
  public Optional<StoredAnswer> answerFor(IdempotencyKey key) {
    synchronized (books) {
      books.checkUp();
      return Optional.ofNullable(books.answers.get(keyOf(key)));
    }
  }

  @Override
  public void checkReachable() {
    synchronized (books) {
      books.checkUp();
    }
  }

  @Override
  public int pay(List<PayoutTask> tasks) {
    if (tasks.isEmpty()) {
      return 0;
    }
    if (tasks.size() > PAY_BATCH_MAX) {
      throw new IllegalArgumentException(
          "payout batch of " + tasks.size() + " tasks; at most " + PAY_BATCH_MAX);
    }
    List<PayoutTask> sorted = new ArrayList<>(tasks);
    sorted.sort(Comparator.comparingLong(PayoutTask::packetId).thenComparing(PayoutTask::userId));
    for (PayoutTask task : sorted) {
      Invariants.check(
          task.amount().isPositive(), "payout %s of %s", task.transferKey(), task.amount());
    }
    synchronized (books) {
      books.checkUp();
      List<PayoutTask> toPay = new ArrayList<>();
      var seen = new java.util.HashMap<String, PayoutTask>();
      for (PayoutTask task : sorted) {
        Transfer posted = books.transfers.get(task.transferKey());
        if (posted != null && !sameShare(posted.amount(), posted.at(), task)) {
          throw anotherShare(task, posted.amount(), posted.at());
        }
        PayoutTask before = seen.putIfAbsent(task.transferKey(), task);
        if (before != null && !sameShare(before.amount().fen(), before.grabbedAt(), task)) {
          throw anotherShare(task, before.amount().fen(), before.grabbedAt());
        }
        if ((posted != null && skipsPaidTransfer()) || before != null) {
          continue;
        }
        toPay.add(task);
      }
      checkEscrows(toPay);
      for (PayoutTask task : toPay) {
        String escrow = MemoryBooks.escrow(task.packetId());
        books.sharesLeft.merge(escrow, -1, Integer::sum);
        books.post(
            new Transfer(
                task.transferKey() + (books.transfers.containsKey(task.transferKey()) ? "#" : ""),
                EntryKind.GRAB,
                escrow,
                MemoryBooks.wallet(task.userId()),
                task.amount().fen(),
                task.packetId(),
                task.userId(),
                task.grabbedAt()));
      }
      return toPay.size();
    }
  }

  /** As the payout statement: a replay carries the grab's amount and time (to the millisecond). */
  private static boolean sameShare(long fen, Instant at, PayoutTask task) {
    return fen == task.amount().fen() && at.toEpochMilli() == task.grabbedAt().toEpochMilli();
  }

  private static PayoutRefused anotherShare(PayoutTask task, long fen, Instant at) {
    return new PayoutRefused(
        "%s was paid %d fen grabbed at %s; this task pays %s grabbed at %s"
            .formatted(
                task.transferKey(),
                fen,
                Instant.ofEpochMilli(at.toEpochMilli()),
                task.amount(),
                Instant.ofEpochMilli(task.grabbedAt().toEpochMilli())));
  }

  /** All or nothing, as the rolled-back transaction: every escrow must cover its payouts. */
  private void checkEscrows(List<PayoutTask> toPay) {
    var owed = new java.util.HashMap<String, long[]>();
    for (PayoutTask task : toPay) {
      long[] sum = owed.computeIfAbsent(MemoryBooks.escrow(task.packetId()), e -> new long[2]);
      sum[0] += task.amount().fen();
      sum[1]++;
    }
    int missing = 0;
    for (var entry : owed.entrySet()) {
      if (!books.sharesLeft.containsKey(entry.getKey())) {
        missing++;
        continue;
      }
      if (grabbedFromAnotherPacket(entry.getKey(), toPay)) {
        throw new PayoutRefused(
            "%s was opened for another packet than the one its task was grabbed from"
                .formatted(entry.getKey()));
      }
      if (books.balance(entry.getKey()) < entry.getValue()[0]
          || books.sharesLeft.get(entry.getKey()) < entry.getValue()[1]) {
        throw new PayoutRefused(
            "the books refuse: an escrow would pay more than its amount or its count of shares"
                + " ("
                + entry.getKey()
                + ")");
      }
    }
    if (missing > 0) {
      throw new PayoutRefused(
          "no escrow for %d of the batch's %d packets".formatted(missing, owed.size()));
    }
  }

  /** As the escrow lock's check: a task grabbed from another packet under the id. */
  private boolean grabbedFromAnotherPacket(String escrow, List<PayoutTask> toPay) {
    for (PayoutTask task : toPay) {
      if (task.packetCreatedAt() != null
          && MemoryBooks.escrow(task.packetId()).equals(escrow)
          && books.packets.get(task.packetId()).packet.createdAt().toEpochMilli()
              != task.packetCreatedAt().toEpochMilli()) {
        return true;
      }
    }
    return false;
  }

  @Override
  public ClaimPayment payClaim(PayoutTask task, Amount keep) {
    synchronized (books) {
      books.checkUp();
      if (!books.transfers.containsKey(task.transferKey())) {
        PacketRow row = books.packets.get(task.packetId());
        if (row != null && row.closingAt != null && row.closedAt == null) {
          return ClaimPayment.CLOSING;
        }
        if (books.balance(MemoryBooks.escrow(task.packetId())) - task.amount().fen() < keep.fen()) {
          return ClaimPayment.NO_ROOM;
        }
      }
      pay(List.of(task));
      return ClaimPayment.PAID;
    }
  }

  @Override
  public boolean refund(long packetId, Amount remainder, Instant at) {
    Invariants.check(!remainder.isNegative(), "refund of %s for packet %d", remainder, packetId);
    synchronized (books) {
      books.checkUp();
      PacketRow row = books.packets.get(packetId);
      if (row == null || row.closedAt != null) {
        return false;
      }
      row.closedAt = at;
      String escrow = MemoryBooks.escrow(packetId);
      long refund = Math.min(remainder.fen(), books.balance(escrow));
      if (refund > 0) {
        books.post(
            new Transfer(
                "refund:" + packetId,
                EntryKind.REFUND,
                escrow,
                MemoryBooks.wallet(row.packet.sender()),
                refund,
                packetId,
                row.packet.sender(),
                at));
      }
      return true;
    }
  }

  @Override
  public Optional<ClaimResolution> resolveRefusedClaim(
      long claimId, ClaimDecision decision, String note, Instant at) {
    synchronized (books) {
      books.checkUp();
      Optional<RefusedClaimRow> found =
          books.refusedClaims.values().stream().filter(row -> row.id == claimId).findFirst();
      if (found.isEmpty()) {
        return Optional.empty();
      }
      RefusedClaimRow row = found.get();
      if (row.resolution != null) {
        if (row.resolution.decision() != decision) {
          throw new RejectedException(
              Rejection.CONFLICT,
              "refused claim %d was resolved: %s".formatted(claimId, row.resolution.decision()));
        }
        return Optional.of(row.resolution);
      }
      if (books.paidAsNamed(row.claim)) {
        throw new RejectedException(
            Rejection.CONFLICT,
            "the grab of refused claim %d has been paid since".formatted(claimId));
      }
      RefusedClaim claim = row.claim;
      Amount paid = decision == ClaimDecision.COMPENSATE ? claim.amount() : Amount.ZERO;
      if (paid.isPositive()) {
        books.post(
            new Transfer(
                "compensation:" + claimId,
                EntryKind.COMPENSATION,
                MemoryBooks.SYSTEM,
                MemoryBooks.wallet(claim.userId()),
                paid.fen(),
                claim.packetId(),
                claim.userId(),
                at));
      }
      row.resolution =
          new ClaimResolution(claimId, claim.packetId(), claim.userId(), decision, paid, note, at);
      return Optional.of(row.resolution);
    }
  }

  @Override
  public WalletSnapshot wallet(String userId, int limit, Collection<Long> packetIds) {
    if (limit < 0 || limit > WALLET_ENTRIES_MAX) {
      throw new IllegalArgumentException("limit " + limit + " not in 0.." + WALLET_ENTRIES_MAX);
    }
    synchronized (books) {
      books.checkUp();
      String wallet = MemoryBooks.wallet(userId);
      var entries = new ArrayList<WalletEntry>();
      for (int i = books.journal.size() - 1; i >= 0 && entries.size() < limit; i--) {
        Transfer t = books.journal.get(i);
        if (t.credit().equals(wallet) || t.debit().equals(wallet)) {
          long signed = t.credit().equals(wallet) ? t.amount() : -t.amount();
          entries.add(new WalletEntry(t.kind(), Amount.fen(signed), t.packetId(), t.at()));
        }
      }
      var paid = new HashSet<Long>();
      books.journal.stream()
          .filter(t -> t.kind() == EntryKind.GRAB && t.credit().equals(wallet))
          .map(Transfer::packetId)
          .filter(packetIds::contains)
          .forEach(paid::add);
      return new WalletSnapshot(
          new Wallet(userId, Amount.fen(books.balance(wallet)), entries), paid);
    }
  }
}
