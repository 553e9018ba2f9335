import { describe, expect, it } from 'vitest';
import { JobSearchIndex, type SearchDocument } from '../../functions/search/search-engine';
import { markedParts } from '../../shared/search';

function document(id: string, fields: Partial<SearchDocument>): SearchDocument {
  return { id, title: '', tags: '', description: '', location: 'Austin, TX', category: 'Other', posterId: 'poster', createdAt: '2026-12-01T00:00:00.000Z', ...fields };
}

const filler = Array.from({ length: 80 }, (_, i) => `word${i}`).join(' ');

function index(): JobSearchIndex {
  const engine = new JobSearchIndex();
  engine.put(document('dishwasher', { title: 'Dishwasher repair', tags: 'Handyman appliances', description: 'My dishwasher leaks at the door.' }));
  engine.put(document('plumbing', { title: 'Plumbing leak under sink', tags: 'Plumbing', description: `The trap drips. ${filler} Bring a spare washer gasket.` }));
  engine.put(document('gutters', { title: 'Clean the gutters', tags: 'Yard Work ladders', description: 'Two-storey house, leaves everywhere.' }));
  engine.put(document('cafe', { title: 'Paint the café sign', tags: 'Painting', description: 'Small sign above the door.' }));
  return engine;
}

const found = (engine: JobSearchIndex, text: string) => engine.match(text).map((match) => match.id);

describe('the open-jobs search engine (issue 46)', () => {
  it('finds a part of a word, inside it as at its start', () => {
    const engine = index();
    expect(found(engine, 'washer')[0]).toBe('dishwasher');
    expect(found(engine, 'dish')).toEqual(['dishwasher']);
    expect(found(engine, 'plumb')).toEqual(['plumbing']);
  });

  it('forgives one typo from four letters and two from six, a swapped pair among them', () => {
    const engine = index();
    expect(found(engine, 'dishwashr')).toEqual(['dishwasher']);
    expect(found(engine, 'plumbng')).toEqual(['plumbing']);
    expect(found(engine, 'gutetr')).toEqual(['gutters']);
    expect(found(engine, 'sinc')).toEqual(['plumbing']);
    // Three letters are taken as they are: no typo forgiven.
    expect(found(engine, 'snk')).toEqual([]);
  });

  it('finds every word of a description, past its sixtieth', () => {
    expect(found(index(), 'gasket')).toEqual(['plumbing']);
  });

  it('ranks a title match over a category or skill over the description', () => {
    const engine = index();
    engine.put(document('ladder-title', { title: 'Ladders to move', description: 'Three aluminium ones.' }));
    engine.put(document('ladder-description', { title: 'Garage tidy', description: 'Move the ladders too.' }));
    const matches = engine.match('ladders');
    expect(matches.map((match) => [match.id, match.tier])).toEqual([
      ['ladder-title', 0],
      ['gutters', 1],
      ['ladder-description', 2],
    ]);
  });

  it('needs every word of the query, ignores case, accents and stop words', () => {
    const engine = index();
    expect(found(engine, 'leak sink')).toEqual(['plumbing']);
    expect(found(engine, 'leak gutters')).toEqual([]);
    expect(found(engine, 'CAFE')).toEqual(['cafe']);
    expect(found(engine, 'the')).toEqual([]);
  });

  it('forgets a removed job and finds a replaced one by its new words only', () => {
    const engine = index();
    engine.remove('gutters');
    expect(found(engine, 'gutters')).toEqual([]);
    engine.put(document('dishwasher', { title: 'Oven repair', tags: 'Handyman', description: 'Door hinge.' }));
    expect(found(engine, 'dishwasher')).toEqual([]);
    expect(found(engine, 'oven')).toEqual(['dishwasher']);
    expect(engine.size).toBe(3);
  });

  it('answers the words it matched, which mark the card', () => {
    const [match] = index().match('washer');
    const title = markedParts('Dishwasher repair', match!.terms);
    expect(title).toEqual([
      { text: 'Dish', marked: false },
      { text: 'washer', marked: true },
      { text: ' repair', marked: false },
    ]);
    const [typo] = index().match('cafe');
    expect(markedParts('Paint the café sign', typo!.terms).filter((part) => part.marked)).toEqual([{ text: 'café', marked: true }]);
  });
});
