package hongbao.core.packet;

/**
 * A refused claim still reported: its grab not paid since, and no operator has resolved it.
 *
 * @param id the ledger's number of the refusal, which an operator resolves it by
 */
public record OpenRefusedClaim(long id, RefusedClaim claim) {}
