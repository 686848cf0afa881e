#!/usr/bin/env python3
"""Histories with one very large read or transaction, the shapes on which
a per-read or per-transaction check that compares pairs takes quadratic
time (tests/cli/t2300-list-append-large-txns.sh, bench/large-txns.sh).

    python3 tests/tools/large_txns.py SHAPE N > history.edn

list-append shapes:
  la-inforead  one :info read of N elements nobody appended
  la-manykeys  one transaction appending to N distinct keys
  la-onekey    one transaction appending N values to one key
  la-pairs     one transaction of N pairs [r k []] [append k v]
  la-dups      four reads listing one appended element N times
  la-dirty     a failed append, then a long read (N elements, each listed
               twice) ending in a committed append: dirty-update
rw-register shapes:
  rw-manykeys  one transaction writing N distinct keys
  rw-onekey    one transaction writing N values to one key
  rw-pairs     one transaction of N pairs [r k nil] [w k v]
  rw-explain   two transactions of N keys each whose only shared key is
               the first one's last (a G-single to explain)
"""
import sys


def op(out, index, typ, process, value):
    out.write('{:index %d :type :%s :process %d :f :txn :value [%s]}\n' % (index, typ, process, value))


def txn(out, index, process, invoked, completed=None, typ='ok'):
    op(out, index, 'invoke', process, invoked)
    op(out, index + 1, typ, process, invoked if completed is None else completed)


def seq(fmt, values):
    return ' '.join(fmt % v for v in values)


def main():
    shape, n = sys.argv[1], int(sys.argv[2])
    out = sys.stdout
    if shape == 'la-inforead':
        txn(out, 0, 0, '[:r 1 nil]', '[:r 1 [%s]]' % seq('%d', range(n)), 'info')
        txn(out, 2, 1, '[:append 2 1]')
    elif shape == 'la-manykeys':
        txn(out, 0, 0, seq('[:append %d 1]', range(n)))
    elif shape == 'la-onekey':
        txn(out, 0, 0, seq('[:append 1 %d]', range(n)))
    elif shape == 'la-pairs':
        mops = seq('[:r 1 nil] [:append 1 %d]', range(n))
        txn(out, 0, 0, mops, mops.replace('nil', '[]'))
    elif shape == 'la-dups':
        txn(out, 0, 0, '[:append 1 1]')
        for p in range(1, 5):
            txn(out, 2 * p, p, '[:r 1 nil]', '[:r 1 [%s]]' % ' '.join(['1'] * n))
    elif shape == 'la-dirty':
        txn(out, 0, 0, '[:append 1 0]', typ='fail')
        txn(out, 2, 1, '[:append 1 1]')
        read = '0 %s 1' % seq('%d %d', ((v, v) for v in range(2, n + 2)))
        txn(out, 4, 2, '[:r 1 nil]', '[:r 1 [%s]]' % read, 'info')
    elif shape == 'rw-manykeys':
        txn(out, 0, 0, seq('[:w %d 1]', range(n)))
    elif shape == 'rw-onekey':
        txn(out, 0, 0, seq('[:w 1 %d]', range(n)))
    elif shape == 'rw-pairs':
        txn(out, 0, 0, seq('[:r 1 nil] [:w 1 %d]', range(n)))
    elif shape == 'rw-explain':
        a = seq('[:w %d 1]', range(n))
        b = seq('[:w %d 2]', range(n, 2 * n)) + ' [:r 0 nil] [:r %d %%s]' % (n - 1)
        op(out, 0, 'invoke', 0, a)
        op(out, 1, 'invoke', 1, b % 'nil')
        op(out, 2, 'ok', 0, a)
        op(out, 3, 'ok', 1, b % '1')
    else:
        sys.exit('large_txns.py: unknown shape %s' % shape)


main()
