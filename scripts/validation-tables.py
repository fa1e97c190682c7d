#!/usr/bin/env python3
"""Markdown tables for validation/README.md from `collsim validate --cross --format json`.

    build/collsim validate --cross --format json > /tmp/v.json
    build/collsim validate --cross --size-corrections 64K,64M --format json > /tmp/v-sc.json
    python3 scripts/validation-tables.py /tmp/v.json /tmp/v-sc.json
"""
import json
import sys


def pct(v):
    return '-' if v is None else f'{v:.1f}'


def pair(s, a, b):
    return f"{pct((s or {}).get(a))} / {pct((s or {}).get(b))}"


def overall(j, bold_headline):
    print('| scope | calibration | rows | latency-bound median / p90 % | bandwidth-bound median / p90 % | geomean % |')
    print('|---|---|---|---|---|---|')
    o = j['overall']
    for scope, obj in (('all runs', o), ('single-node', o['single_node']), ('multi-node', o['multi_node']),
                       ('8-GPU NVSwitch AllReduce', o['nvswitch_8gpu_allreduce'])):
        for mode, label in (('given', 'defaults'), ('in_sample', 'in-sample'), ('out_of_sample', 'out-of-sample')):
            s = obj[mode]
            lat, bw = pct(s['median_ape_latency_pct']), pct(s['median_ape_bandwidth_pct'])
            row = [scope, label]
            if bold_headline and scope == 'all runs' and mode == 'out_of_sample':
                row = [f'**{scope}**', f'**{label}**']
                lat, bw = f'**{lat}**', f'**{bw}**'
            print(f"| {row[0]} | {row[1]} | {s['rows']} | {lat} / {pct(s['p90_ape_latency_pct'])} | "
                  f"{bw} / {pct(s['p90_ape_bandwidth_pct'])} | {pct(s['geomean_ape_pct'])} |")
    print()


def per_run(j):
    print('| run | class | ranks | nodes | -g | rows | tuner\'s algo / proto | defaults | in-sample | out-of-sample |')
    print('|---|---|---|---|---|---|---|---|---|---|')
    for d in j['datasets']:
        name = d['file'].removesuffix('.csv')
        print(f"| {name} | {d['class']} | {d['ranks']} | {d['nodes']} | {d['gpus_per_thread']} | {d['rows']} | {d['algo']} / {d['proto']} | "
              f"{pair(d, 'median_ape_latency_pct', 'median_ape_bandwidth_pct')} | "
              f"{pair(d.get('fitted'), 'median_ape_latency_pct', 'median_ape_bandwidth_pct')} | "
              f"{pair(d.get('out_of_sample'), 'median_ape_latency_pct', 'median_ape_bandwidth_pct')} |")
    print()
    print('not covered:', ', '.join(n['file'] for n in j['not_covered']))


def main():
    plain = json.load(open(sys.argv[1]))
    print(f"{len(plain['datasets'])} runs covered, {len(plain['not_covered'])} not\n")
    overall(plain, True)
    if len(sys.argv) > 2:
        overall(json.load(open(sys.argv[2])), False)
    per_run(plain)


if __name__ == '__main__':
    main()
