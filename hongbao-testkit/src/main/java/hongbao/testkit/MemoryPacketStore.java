package hongbao.testkit;

import hongbao.core.ledger.EntryKind;
import hongbao.core.money.Amount;
import hongbao.core.packet.GrabView;
import hongbao.core.packet.OpenRefusedClaim;
import hongbao.core.packet.Packet;
import hongbao.core.packet.PacketStore;
import hongbao.core.packet.RefusedClaim;
import hongbao.core.packet.StuckRefund;
import hongbao.testkit.MemoryBooks.PacketRow;
import hongbao.testkit.MemoryBooks.RefusedClaimRow;
import hongbao.testkit.MemoryBooks.Transfer;
import java.time.Instant;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.IntFunction;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * Packets as the ledger recorded them, read from {@link MemoryBooks} with the queries of the
 * PostgreSQL packet store (same filters, same order). The auditor's view ({@code outages} false)
 * reads through an outage; the services' view fails with it.
 */
public final class MemoryPacketStore implements PacketStore {

  private final MemoryBooks books;
  private final boolean outages;

  public MemoryPacketStore(MemoryBooks books, boolean outages) {
    this.books = books;
    this.outages = outages;
  }

  public MemoryPacketStore(MemoryBooks books) {
    this(books, true);
  }

  private void checkUp() {
    if (outages) {
      books.checkUp();
    }
  }

  private Stream<PacketRow> rows() {
    checkUp();
    return books.packets.values().stream();
  }

  private Stream<Transfer> grabsOf(long packetId) {
    return books.ofPacket(packetId).stream().filter(t -> t.kind() == EntryKind.GRAB);
  }

  @Override
  public Optional<Packet> find(long packetId) {
    synchronized (books) {
      checkUp();
      return Optional.ofNullable(books.packets.get(packetId)).map(row -> row.packet);
    }
  }

  @Override
  public List<Packet> sentBy(String userId, Long beforeId, int limit) {
    synchronized (books) {
      long before = beforeId == null ? Long.MAX_VALUE : beforeId;
      return rows()
          .filter(r -> r.packet.sender().equals(userId) && r.packet.id() < before)
          .sorted(Comparator.comparingLong((PacketRow r) -> r.packet.id()).reversed())
          .limit(limit)
          .map(r -> r.packet)
          .toList();
    }
  }

  @Override
  public List<Long> paidTo(String userId, Long beforeId, int limit) {
    synchronized (books) {
      checkUp();
      long before = beforeId == null ? Long.MAX_VALUE : beforeId;
      return books.journal.stream()
          .filter(t -> t.kind() == EntryKind.GRAB && t.userId().equals(userId))
          .map(Transfer::packetId)
          .filter(id -> id < before)
          .distinct()
          .sorted(Comparator.reverseOrder())
          .limit(limit)
          .toList();
    }
  }

  @Override
  public List<Packet> unarmed(Instant createdBefore, Instant now, int limit) {
    synchronized (books) {
      return rows()
          .filter(r -> !r.armed && r.heldReason == null)
          .filter(r -> r.packet.createdAt().isBefore(createdBefore))
          .filter(r -> r.packet.expiresAt().isAfter(now))
          .sorted(
              Comparator.comparing((PacketRow r) -> r.packet.createdAt())
                  .thenComparingLong(r -> r.packet.id()))
          .limit(limit)
          .map(r -> r.packet)
          .toList();
    }
  }

  @Override
  public void markArmed(long packetId) {
    synchronized (books) {
      checkUp();
      PacketRow row = books.packets.get(packetId);
      if (row != null) {
        row.armed = true;
      }
    }
  }

  @Override
  public void markHeld(long packetId, String reason) {
    synchronized (books) {
      checkUp();
      PacketRow row = books.packets.get(packetId);
      if (row != null && row.heldReason == null) {
        row.heldReason = reason;
      }
    }
  }

  /** The ids among {@code packetIds} whose row meets {@code condition} (null: no row). */
  private Set<Long> among(Collection<Long> packetIds, Predicate<PacketRow> condition) {
    synchronized (books) {
      checkUp();
      var found = new HashSet<Long>();
      for (long id : packetIds) {
        if (condition.test(books.packets.get(id))) {
          found.add(id);
        }
      }
      return found;
    }
  }

  @Override
  public Set<Long> knownAmong(Collection<Long> packetIds) {
    return among(packetIds, row -> row != null);
  }

  @Override
  public Set<Long> closedAmong(Collection<Long> packetIds) {
    return among(packetIds, row -> row != null && row.closedAt != null);
  }

  @Override
  public Set<Long> heldAmong(Collection<Long> packetIds) {
    return among(packetIds, row -> row != null && row.heldReason != null);
  }

  @Override
  public List<Packet> open(long afterId, int limit) {
    synchronized (books) {
      checkUp();
      return books.packets.tailMap(afterId, false).values().stream()
          .filter(r -> r.closedAt == null)
          .limit(limit)
          .map(r -> r.packet)
          .toList();
    }
  }

  @Override
  public List<Packet> claimExpired(Instant now, Instant until, int limit) {
    synchronized (books) {
      List<PacketRow> claimed =
          rows()
              .filter(r -> r.closedAt == null && !r.packet.expiresAt().isAfter(now))
              .filter(r -> r.refundRetryAt == null || !r.refundRetryAt.isAfter(now))
              .sorted(byExpiry())
              .limit(limit)
              .toList();
      claimed.forEach(
          r -> {
            r.refundRetryAt = until;
            r.closingAt = r.closingAt == null ? now : r.closingAt;
          });
      return claimed.stream().map(r -> r.packet).toList();
    }
  }

  @Override
  public void releaseClaims(Collection<Long> packetIds, Instant until) {
    synchronized (books) {
      rows()
          .filter(r -> r.closedAt == null && packetIds.contains(r.packet.id()))
          .filter(r -> until.equals(r.refundRetryAt))
          .forEach(r -> r.refundRetryAt = null);
    }
  }

  private static Comparator<PacketRow> byExpiry() {
    return Comparator.comparing((PacketRow r) -> r.packet.expiresAt())
        .thenComparingLong(r -> r.packet.id());
  }

  @Override
  public int postponeRefund(long packetId, IntFunction<Instant> retryAt, String reason) {
    synchronized (books) {
      checkUp();
      PacketRow row = books.packets.get(packetId);
      if (row == null) {
        return 0;
      }
      row.refundAttempts++;
      row.refundRetryAt = retryAt.apply(row.refundAttempts);
      if (reason != null) {
        row.lastRefundError = reason;
      }
      return row.refundAttempts;
    }
  }

  @Override
  public List<StuckRefund> stuckRefunds(Instant expiredBefore, int limit) {
    synchronized (books) {
      return rows()
          .filter(r -> r.closedAt == null)
          .filter(r -> r.packet.expiresAt().isBefore(expiredBefore) || r.heldReason != null)
          .sorted(byExpiry())
          .limit(limit)
          .map(
              r ->
                  new StuckRefund(
                      r.packet.id(),
                      r.packet.expiresAt(),
                      Amount.fen(books.balance(MemoryBooks.escrow(r.packet.id()))),
                      r.refundAttempts,
                      r.lastRefundError,
                      r.heldReason))
          .toList();
    }
  }

  @Override
  public Map<String, Amount> paidGrabs(long packetId) {
    synchronized (books) {
      checkUp();
      var paid = new LinkedHashMap<String, Amount>();
      grabsOf(packetId).forEach(t -> paid.putIfAbsent(t.userId(), Amount.fen(t.amount())));
      return paid;
    }
  }

  @Override
  public List<GrabView> paidGrabViews(long packetId) {
    synchronized (books) {
      checkUp();
      return grabsOf(packetId)
          .sorted(Comparator.comparing(Transfer::at))
          .map(t -> new GrabView(t.userId(), Amount.fen(t.amount()), t.at(), true))
          .toList();
    }
  }

  @Override
  public void recordRefusedClaim(RefusedClaim claim) {
    synchronized (books) {
      checkUp();
      String key = claim.packetId() + ":" + claim.userId() + ":" + claim.packetCreatedAt();
      if (!books.refusedClaims.containsKey(key)) {
        books.refusedClaims.put(key, new RefusedClaimRow(books.refusedClaims.size() + 1L, claim));
      }
    }
  }

  @Override
  public List<OpenRefusedClaim> openRefusedClaims(int limit) {
    synchronized (books) {
      checkUp();
      return books.refusedClaims.values().stream()
          .filter(row -> row.resolution == null && !books.paidAsNamed(row.claim))
          .limit(limit)
          .map(row -> new OpenRefusedClaim(row.id, row.claim))
          .toList();
    }
  }

  @Override
  public Amount refunded(long packetId) {
    synchronized (books) {
      checkUp();
      return Amount.fen(
          books.ofPacket(packetId).stream()
              .filter(t -> t.kind() == EntryKind.REFUND)
              .mapToLong(Transfer::amount)
              .sum());
    }
  }
}
