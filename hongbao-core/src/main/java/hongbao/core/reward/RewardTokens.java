package hongbao.core.reward;

import java.util.Optional;

/**
 * Port: seals a reward into the encrypted token the client keeps, and opens it again. A token is
 * bound to its user: it opens only for that user (or for an operator, who may open any token).
 */
public interface RewardTokens {

  /** At most {@value #MAX_CHARS} characters. */
  int MAX_CHARS = 512;

  String seal(Reward reward);

  /** The reward in a genuine token sealed for {@code userId}; empty for anything else. */
  Optional<Reward> open(String token, String userId);

  /** The reward in any genuine token, whoever it was sealed for (operators only). */
  Optional<Reward> openAny(String token);
}
