package hongbao.core.packet;

import hongbao.core.money.Amount;
import java.time.Instant;

/** A genuine grab receipt whose packet's books could no longer pay it. */
public record RefusedClaim(
    long packetId, String userId, Amount amount, String reason, Instant at) {}
