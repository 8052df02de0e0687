package hongbao.core.reconcile;

import hongbao.core.money.Amount;
import hongbao.core.packet.Packet;
import java.time.Instant;
import java.util.List;

/** Port: the ledger's books, read for reconciliation. */
public interface LedgerAudit {

  /** Packets with ids above {@code afterId}, ascending. */
  List<Packet> packets(long afterId, int limit);

  /**
   * Packets with ids above {@code afterId}, ascending, whose books may have changed at or after
   * {@code since}: still open (not closed, so grabs may still land), created, closed, or with any
   * transfer posted at or after it. A packet none of that holds for has not moved since.
   */
  List<Packet> packetsTouchedSince(Instant since, long afterId, int limit);

  /** The balance of a packet's escrow account. */
  Amount escrowBalance(long packetId);

  /**
   * Accounts whose balance is not the sum of their transfers, or is negative (the system account
   * that funds top-ups excepted), each described in one line.
   */
  List<String> accountProblems();
}
