--[[
budget_reserve.lua: reserves a reward's cost on the budget key its tradeNo hashes to, and records
the trade, or answers the first reservation of the same tradeNo.

KEYS[1] budget key  hb:rwb:{<campaign>:<k>}     hash: cap, used, ...
KEYS[2] trades      hb:rwb:{<campaign>:<k>}:t   hash: tradeNo -> digest|cost|acceptedAtMillis|token
                                                 (|sync appended for a synchronous send; for an
                                                 asynchronous one |replayed once replayed and
                                                 |unqueued once no queue took it, in either order)
ARGV[1] tradeNo  ARGV[2] request digest  ARGV[3] cost (fen, 0 for non-cash)  ARGV[4] now (ms)
ARGV[5] token  ARGV[6] 'sync' for a synchronous send (issued now, undone if that fails), else
'async'  ARGV[7] allowance other keys lent this one for this reservation (fen, as budget_lend.lua
returned it; '0' when nothing was borrowed), granted first as budget_grant.lua grants it: in the
same script, so no other borrower can lend it away again before this reservation uses it


Replies (one string: the verdict, then what it carries after one space):
  'OK'                  reserved and recorded
  'REPLAY token'        reserved before with the same digest: its first token (the rest of the
                        string, whatever it holds); the trade is marked replayed: this replay
                        may queue the event, so the first send, if it fails to claim or to queue,
                        keeps the reservation (a lost claim or queue of both leaves it to the next
                        retry, and the reconciler names it meanwhile)
  'SYNC at token'       as REPLAY, by a synchronous send accepted at `at` (ms): it may still be
                        issuing, and undo the reservation if that fails
  'CONFLICT'            reserved before with another digest
  'DRY left'            this key's allowance has only `left` fen: borrow from the other keys
  'CLOSED'              the campaign's budget was closed (budget_close.lua): nothing more is
                        reserved on it, whatever room a release left
  'UNKNOWN'             the budget key was never opened
  'FROZEN'              an edit of the campaign is resizing its budget (budget_freeze.lua): retry
  'LAPSED'              an edit's freeze ended, neither let go by its edit nor lifted by the
                        resize: whether the edit committed (and its arming failed) or not, only
                        the books know; the caller asks them, resizes or lets go, and tries again
A string, not an array: Redis 6.2 writes a script's array reply with a system call of its own
(see grab.lua), and reservations share a connection.

Atomic because the replay check, the allowance check and the record happen together: two racing
requests with one tradeNo reserve once, and used never exceeds cap on this key.
--]]
local granted = tonumber(ARGV[7] or '0')
if granted > 0 then
  -- On a closed or lost key the lent allowance stays unspent (budget_grant.lua says why).
  local key = redis.call('HMGET', KEYS[1], 'budget', 'closed')
  if key[1] and not key[2] then
    redis.call('HINCRBY', KEYS[1], 'cap', granted)
    redis.call('HINCRBY', KEYS[1], 'borrowed', granted)
  end
end
local prior = redis.call('HGET', KEYS[2], ARGV[1])
if prior then
  local digest, at, token, mode = string.match(prior, '^([^|]*)|[^|]*|([^|]*)|([^|]*)(.*)$')
  if digest ~= ARGV[2] then return 'CONFLICT' end
  if mode == '|sync' then return 'SYNC ' .. at .. ' ' .. token end
  if not string.find(mode, '|replayed', 1, true) then
    redis.call('HSET', KEYS[2], ARGV[1], prior .. '|replayed')
  end
  return 'REPLAY ' .. token
end
local state = redis.call('HMGET', KEYS[1], 'cap', 'used', 'closed', 'frozen')
if not state[1] then return 'UNKNOWN' end
if state[3] then return 'CLOSED' end
if state[4] then
  if tonumber(string.match(state[4], '^%d+')) > tonumber(ARGV[4]) then return 'FROZEN' end
  -- Reserving now could refuse the resize of an edit that did commit, for good.
  return 'LAPSED'
end
local cap = tonumber(state[1])
local used = tonumber(state[2])
local cost = tonumber(ARGV[3])
if used + cost > cap then return 'DRY ' .. string.format('%d', cap - used) end
redis.call('HINCRBY', KEYS[1], 'used', cost)
local record = ARGV[2] .. '|' .. ARGV[3] .. '|' .. ARGV[4] .. '|' .. ARGV[5]
if ARGV[6] == 'sync' then record = record .. '|sync' end
redis.call('HSET', KEYS[2], ARGV[1], record)
return 'OK'
