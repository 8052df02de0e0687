package hongbao.core.withdrawal;

import java.time.Instant;

/**
 * One move of a withdrawal's state machine, kept forever with its cause.
 *
 * @param from null for the creation
 */
public record Transition(WithdrawalStatus from, WithdrawalStatus to, String cause, Instant at) {}
