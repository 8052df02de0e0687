package hongbao.testkit;

import hongbao.core.Unavailable;
import hongbao.core.ledger.EntryKind;
import hongbao.core.ledger.StoredAnswer;
import hongbao.core.money.Amount;
import hongbao.core.packet.ClaimResolution;
import hongbao.core.packet.Packet;
import hongbao.core.packet.RefusedClaim;
import hongbao.core.reconcile.LedgerAudit;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The ledger's tables in memory — accounts, transfers under unique keys, packets, idempotency
 * answers — shared by {@link MemoryLedger} and {@link MemoryPacketStore} as PostgreSQL's tables are
 * shared by its adapters. Read as the auditor ({@link LedgerAudit}) it never fails; the ports can
 * be taken down for a stretch ({@link #goDown}) as PostgreSQL can.
 */
public final class MemoryBooks implements LedgerAudit {

  /** The account that funds top-ups: the only one allowed below zero. */
  static final String SYSTEM = "system";

  final Map<String, Long> balances = new HashMap<>();
  final Map<String, Integer> sharesLeft = new HashMap<>();
  final Map<String, Transfer> transfers = new HashMap<>();
  final List<Transfer> journal = new ArrayList<>();

  /** The journal by packet: the reconciler reads every packet after every simulated step. */
  final Map<Long, List<Transfer>> journalByPacket = new HashMap<>();

  final TreeMap<Long, PacketRow> packets = new TreeMap<>();
  final Map<String, StoredAnswer> answers = new HashMap<>();

  /** By packet, user and the creation the receipt named, as PostgreSQL's unique key. */
  final Map<String, RefusedClaimRow> refusedClaims = new java.util.LinkedHashMap<>();

  long sequence;
  private boolean down;

  /** One posting: {@code amount} from {@code debit} to {@code credit}, under a unique key. */
  record Transfer(
      String key,
      EntryKind kind,
      String debit,
      String credit,
      long amount,
      Long packetId,
      String userId,
      Instant at) {}

  /** A refused claim, its number and, once an operator decided, the resolution. */
  static final class RefusedClaimRow {
    final long id;
    final RefusedClaim claim;
    ClaimResolution resolution;

    RefusedClaimRow(long id, RefusedClaim claim) {
      this.id = id;
      this.claim = claim;
    }
  }

  /** Whether the ledger paid the claim's grab, of the packet creation its receipt named. */
  boolean paidAsNamed(RefusedClaim claim) {
    PacketRow row = packets.get(claim.packetId());
    boolean samePacket =
        claim.packetCreatedAt() == null
            || (row != null
                && row.packet
                    .createdAt()
                    .truncatedTo(ChronoUnit.MILLIS)
                    .equals(claim.packetCreatedAt()));
    return samePacket
        && ofPacket(claim.packetId()).stream()
            .anyMatch(t -> t.kind() == EntryKind.GRAB && t.userId().equals(claim.userId()));
  }

  /** A packet row and the bookkeeping PostgreSQL keeps beside it. */
  static final class PacketRow {
    final Packet packet;
    boolean armed;
    String heldReason;
    Instant closingAt;
    Instant closedAt;
    int refundAttempts;
    Instant refundRetryAt;
    String lastRefundError;

    PacketRow(Packet packet) {
      this.packet = packet;
    }
  }

  static String wallet(String userId) {
    return "wallet:" + userId;
  }

  static String escrow(long packetId) {
    return "escrow:" + packetId;
  }

  /** Fault: every port call fails as {@link Unavailable} until {@link #comeBack}. */
  public synchronized void goDown() {
    down = true;
  }

  public synchronized void comeBack() {
    down = false;
  }

  public synchronized boolean isDown() {
    return down;
  }

  void checkUp() {
    if (down) {
      throw new Unavailable("postgres", "connection refused (simulated outage)", null);
    }
  }

  long balance(String account) {
    return balances.getOrDefault(account, 0L);
  }

  void post(Transfer transfer) {
    transfers.put(transfer.key(), transfer);
    journal.add(transfer);
    if (transfer.packetId() != null) {
      journalByPacket.computeIfAbsent(transfer.packetId(), id -> new ArrayList<>()).add(transfer);
    }
    balances.merge(transfer.debit(), -transfer.amount(), Long::sum);
    balances.merge(transfer.credit(), transfer.amount(), Long::sum);
  }

  /** The sum of every wallet and escrow: what the system account has put in, to the fen. */
  public synchronized long moneyOutsideSystem() {
    return balances.entrySet().stream()
        .filter(e -> !e.getKey().equals(SYSTEM))
        .mapToLong(Map.Entry::getValue)
        .sum();
  }

  public synchronized long systemBalance() {
    return balance(SYSTEM);
  }

  /** How many transfers pay this user a share of this packet (exactly once is the rule). */
  public synchronized long payoutsOf(long packetId, String userId) {
    return ofPacket(packetId).stream()
        .filter(t -> t.kind() == EntryKind.GRAB && t.userId().equals(userId))
        .count();
  }

  List<Transfer> ofPacket(long packetId) {
    return journalByPacket.getOrDefault(packetId, List.of());
  }

  @Override
  public synchronized List<Packet> packets(long afterId, int limit) {
    return packets.tailMap(afterId, false).values().stream()
        .limit(limit)
        .map(row -> row.packet)
        .toList();
  }

  @Override
  public synchronized List<Packet> packetsTouchedSince(Instant since, long afterId, int limit) {
    return packets.tailMap(afterId, false).values().stream()
        .filter(row -> touchedSince(row, since))
        .limit(limit)
        .map(row -> row.packet)
        .toList();
  }

  /** As PostgreSQL's query: open, created, closed or posted to at or after {@code since}. */
  private boolean touchedSince(PacketRow row, Instant since) {
    return row.closedAt == null
        || !row.packet.createdAt().isBefore(since)
        || !row.closedAt.isBefore(since)
        || ofPacket(row.packet.id()).stream().anyMatch(t -> !t.at().isBefore(since));
  }

  @Override
  public synchronized Amount escrowBalance(long packetId) {
    return Amount.fen(balance(escrow(packetId)));
  }

  @Override
  public synchronized List<String> accountProblems() {
    var sums = new HashMap<String, Long>();
    for (Transfer t : journal) {
      sums.merge(t.debit(), -t.amount(), Long::sum);
      sums.merge(t.credit(), t.amount(), Long::sum);
    }
    var problems = new ArrayList<String>();
    balances.forEach(
        (account, balance) -> {
          long sum = sums.getOrDefault(account, 0L);
          if (sum != balance) {
            problems.add(
                "account %s: balance %d != sum of transfers %d".formatted(account, balance, sum));
          }
          if (balance < 0 && !account.equals(SYSTEM)) {
            problems.add("account %s: negative balance %d".formatted(account, balance));
          }
        });
    return problems;
  }
}
