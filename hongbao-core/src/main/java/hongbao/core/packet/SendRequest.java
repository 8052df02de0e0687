package hongbao.core.packet;

import hongbao.core.password.PasswordMatch;
import java.util.List;

/**
 * A request to fund a packet, as parsed from the wire and not yet validated. Numbers are longs so
 * that an out-of-range value reaches validation and gets its own error code.
 *
 * @param expiresInSeconds null for the default expiry
 * @param recipients null when absent
 * @param passwordMatch null for the default (or for a packet without a 口令)
 * @param activityId the activity the packet counts grabs for, 0 for none
 */
public record SendRequest(
    String sender,
    long amount,
    long count,
    PacketType type,
    String greeting,
    Long expiresInSeconds,
    String password,
    List<String> recipients,
    PasswordMatch passwordMatch,
    long activityId) {

  /** A request outside any activity with the default matching. */
  public SendRequest(
      String sender,
      long amount,
      long count,
      PacketType type,
      String greeting,
      Long expiresInSeconds,
      String password,
      List<String> recipients) {
    this(sender, amount, count, type, greeting, expiresInSeconds, password, recipients, null, 0);
  }
}
