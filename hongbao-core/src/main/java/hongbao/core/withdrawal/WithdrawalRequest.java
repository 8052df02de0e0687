package hongbao.core.withdrawal;

import hongbao.core.RejectedException;
import hongbao.core.Rejection;
import hongbao.core.reward.RewardStatement;
import hongbao.core.reward.RewardTokens;
import java.util.List;

/**
 * What a user asks to withdraw.
 *
 * @param amountFen as the client sent it; validated by {@link #validate}
 * @param tokens the client's reward tokens for forced credit; empty when absent
 */
public record WithdrawalRequest(String userId, long amountFen, List<String> tokens) {

  public static final long AMOUNT_MIN_FEN = 1;
  public static final long AMOUNT_MAX_FEN = 20_000_000;
  public static final int TOKENS_MAX = RewardStatement.MAX_CLIENT_TOKENS;
  public static final int TOKEN_LENGTH_MAX = RewardTokens.MAX_CHARS;

  public WithdrawalRequest {
    tokens = tokens == null ? List.of() : List.copyOf(tokens);
  }

  /**
   * @throws RejectedException INVALID_AMOUNT or INVALID_REQUEST
   */
  public void validate() {
    if (tokens.size() > TOKENS_MAX) {
      throw new RejectedException(
          Rejection.INVALID_REQUEST, "at most " + TOKENS_MAX + " tokens per withdrawal");
    }
    for (String token : tokens) {
      if (token.isEmpty() || token.length() > TOKEN_LENGTH_MAX) {
        throw new RejectedException(
            Rejection.INVALID_REQUEST, "a token has 1 to " + TOKEN_LENGTH_MAX + " characters");
      }
    }
    if (amountFen < AMOUNT_MIN_FEN || amountFen > AMOUNT_MAX_FEN) {
      throw new RejectedException(
          Rejection.INVALID_AMOUNT,
          "amount must be between " + AMOUNT_MIN_FEN + " and " + AMOUNT_MAX_FEN + " fen");
    }
  }
}
