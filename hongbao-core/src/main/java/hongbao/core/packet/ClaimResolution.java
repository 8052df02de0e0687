package hongbao.core.packet;

import hongbao.core.money.Amount;
import java.time.Instant;

/**
 * An operator's resolution of a refused claim.
 *
 * @param paid what it paid into the user's wallet: the claim's amount when compensated, else zero
 */
public record ClaimResolution(
    long claimId,
    long packetId,
    String userId,
    ClaimDecision decision,
    Amount paid,
    String note,
    Instant at) {}
