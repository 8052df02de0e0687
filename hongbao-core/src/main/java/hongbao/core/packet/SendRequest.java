package hongbao.core.packet;

import java.util.List;

/**
 * A request to fund a packet, as parsed from the wire and not yet validated. Numbers are longs so
 * that an out-of-range value reaches validation and gets its own error code.
 *
 * @param expiresInSeconds null for the default expiry
 * @param recipients null when absent
 */
public record SendRequest(
    String sender,
    long amount,
    long count,
    PacketType type,
    String greeting,
    Long expiresInSeconds,
    String password,
    List<String> recipients) {}
