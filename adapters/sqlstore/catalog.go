package sqlstore

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"paygate/core/catalog"
)

type serviceRow struct {
	ID          uint64     `gorm:"column:id;primaryKey;autoIncrement"`
	Name        string     `gorm:"column:name"`
	Slug        string     `gorm:"column:slug"`
	Description *string    `gorm:"column:description"`
	Category    string     `gorm:"column:category"`
	ProviderURL string     `gorm:"column:provider_url"`
	ProviderKey *string    `gorm:"column:provider_key"`
	Method      string     `gorm:"column:method"`
	Headers     *string    `gorm:"column:headers"`
	Parameters  *string    `gorm:"column:parameters"`
	Status      string     `gorm:"column:status"`
	Builtin     bool       `gorm:"column:builtin"`
	SAC         *string    `gorm:"column:sac_code"`
	CreatedAt   *time.Time `gorm:"column:created_at;autoCreateTime:false"`
	UpdatedAt   *time.Time `gorm:"column:updated_at;autoUpdateTime:false"`
}

func (serviceRow) TableName() string { return "api_services" }

// jsonMapToDB stores a nil map as NULL and any other map as a JSON object.
func jsonMapToDB(field string, m map[string]string) (*string, error) {
	if m == nil {
		return nil, nil
	}
	s, err := jsonToDB(field, m)
	return &s, err
}

func toServiceRow(s *catalog.Service) (serviceRow, error) {
	headers, err := jsonMapToDB("headers", s.Headers)
	if err != nil {
		return serviceRow{}, err
	}
	params, err := jsonMapToDB("parameters", s.Parameters)
	if err != nil {
		return serviceRow{}, err
	}
	r := serviceRow{
		ID:          s.ID,
		Name:        s.Name,
		Slug:        s.Slug,
		Description: s.Description,
		Category:    s.Category,
		ProviderURL: s.ProviderURL,
		ProviderKey: s.ProviderKey,
		Method:      s.Method,
		Headers:     headers,
		Parameters:  params,
		Status:      string(s.Status),
		Builtin:     s.Builtin,
		SAC:         s.SAC,
		CreatedAt:   stamp(s.CreatedAt),
		UpdatedAt:   stamp(s.UpdatedAt),
	}
	if r.Method == "" {
		r.Method = "POST"
	}
	if r.Status == "" {
		r.Status = string(catalog.StatusActive)
	}
	return r, nil
}

func toDomainService(r *serviceRow) (*catalog.Service, error) {
	s := &catalog.Service{
		ID:          r.ID,
		Name:        r.Name,
		Slug:        r.Slug,
		Description: r.Description,
		Category:    r.Category,
		ProviderURL: r.ProviderURL,
		ProviderKey: r.ProviderKey,
		Method:      r.Method,
		Status:      catalog.Status(r.Status),
		Builtin:     r.Builtin,
		SAC:         r.SAC,
		CreatedAt:   timeFromDB(r.CreatedAt),
		UpdatedAt:   timeFromDB(r.UpdatedAt),
	}
	if r.Headers != nil {
		if err := jsonFromDB("headers", *r.Headers, &s.Headers); err != nil {
			return nil, fmt.Errorf("service %d: %w", r.ID, err)
		}
	}
	if r.Parameters != nil {
		if err := jsonFromDB("parameters", *r.Parameters, &s.Parameters); err != nil {
			return nil, fmt.Errorf("service %d: %w", r.ID, err)
		}
	}
	return s, nil
}

type docRow struct {
	ID              uint64     `gorm:"column:id;primaryKey;autoIncrement"`
	ServiceID       uint64     `gorm:"column:api_service_id"`
	Endpoint        string     `gorm:"column:endpoint"`
	Method          string     `gorm:"column:method"`
	Description     string     `gorm:"column:description"`
	RequestParams   string     `gorm:"column:request_params"`
	ResponseExample string     `gorm:"column:response_example"`
	ErrorCodes      string     `gorm:"column:error_codes"`
	SortOrder       int        `gorm:"column:sort_order"`
	CreatedAt       *time.Time `gorm:"column:created_at;autoCreateTime:false"`
	UpdatedAt       *time.Time `gorm:"column:updated_at;autoUpdateTime:false"`
}

func (docRow) TableName() string { return "api_documentations" }

func toDocRow(d *catalog.Doc) (docRow, error) {
	r := docRow{
		ID:          d.ID,
		ServiceID:   d.ServiceID,
		Endpoint:    d.Endpoint,
		Method:      d.Method,
		Description: d.Description,
		SortOrder:   d.SortOrder,
		CreatedAt:   stamp(d.CreatedAt),
		UpdatedAt:   stamp(d.UpdatedAt),
	}
	var err error
	if r.RequestParams, err = jsonToDB("request_params", nonNil(d.RequestParams)); err != nil {
		return r, err
	}
	if r.ResponseExample, err = jsonToDB("response_example", nonNil(d.ResponseExample)); err != nil {
		return r, err
	}
	if r.ErrorCodes, err = jsonToDB("error_codes", nonNil(d.ErrorCodes)); err != nil {
		return r, err
	}
	return r, nil
}

// nonNil keeps the required JSON columns objects ({}), never null.
func nonNil[V any](m map[string]V) map[string]V {
	if m == nil {
		return map[string]V{}
	}
	return m
}

func toDomainDoc(r *docRow) (*catalog.Doc, error) {
	d := &catalog.Doc{
		ID:          r.ID,
		ServiceID:   r.ServiceID,
		Endpoint:    r.Endpoint,
		Method:      r.Method,
		Description: r.Description,
		SortOrder:   r.SortOrder,
		CreatedAt:   timeFromDB(r.CreatedAt),
		UpdatedAt:   timeFromDB(r.UpdatedAt),
	}
	if err := jsonFromDB("request_params", r.RequestParams, &d.RequestParams); err != nil {
		return nil, fmt.Errorf("docs of service %d: %w", r.ServiceID, err)
	}
	if err := jsonFromDB("response_example", r.ResponseExample, &d.ResponseExample); err != nil {
		return nil, fmt.Errorf("docs of service %d: %w", r.ServiceID, err)
	}
	if err := jsonFromDB("error_codes", r.ErrorCodes, &d.ErrorCodes); err != nil {
		return nil, fmt.Errorf("docs of service %d: %w", r.ServiceID, err)
	}
	return d, nil
}

type catalogStore struct{ base }

var _ catalog.Repository = (*catalogStore)(nil)

func serviceWriteError(op string, err error) error {
	if msg, dup := duplicateOf(err); dup && mentions(msg, "api_services_slug_unique", "api_services.slug") {
		return catalog.ErrSlugTaken.Wrap(err)
	}
	return fmt.Errorf("%s: %w", op, translate(err))
}

func (s *catalogStore) Create(ctx context.Context, svc *catalog.Service) error {
	r, err := sealedServiceRow(s.base, svc)
	if err != nil {
		return fmt.Errorf("create service: %w", err)
	}
	r.ID = 0
	if err := s.conn(ctx).Create(&r).Error; err != nil {
		return serviceWriteError("create service", err)
	}
	svc.ID = r.ID
	svc.CreatedAt, svc.UpdatedAt = timeFromDB(r.CreatedAt), timeFromDB(r.UpdatedAt)
	return nil
}

func (s *catalogStore) find(ctx context.Context, column string, value any) (*catalog.Service, error) {
	return s.findOn(s.conn(ctx), column, value)
}

func (s *catalogStore) findOn(q *gorm.DB, column string, value any) (*catalog.Service, error) {
	var r serviceRow
	if err := q.Where(column+" = ?", value).Take(&r).Error; err != nil {
		return nil, errNotFoundOr(err, catalog.ErrServiceNotFound)
	}
	return openService(s.base, &r)
}

// sealedServiceRow is svc's row as stored: its provider key sealed.
func sealedServiceRow(b base, svc *catalog.Service) (serviceRow, error) {
	r, err := toServiceRow(svc)
	if err != nil {
		return r, err
	}
	r.ProviderKey, err = b.sealPtr("provider_key", r.ProviderKey)
	return r, err
}

// openService is the service of a row as stored: its provider key opened.
func openService(b base, r *serviceRow) (*catalog.Service, error) {
	svc, err := toDomainService(r)
	if err != nil {
		return nil, err
	}
	if svc.ProviderKey, err = b.openPtr("provider_key", r.ProviderKey); err != nil {
		return nil, fmt.Errorf("service %d: %w", r.ID, err)
	}
	return svc, nil
}

func (s *catalogStore) ByID(ctx context.Context, id uint64) (*catalog.Service, error) {
	return s.find(ctx, "id", id)
}

func (s *catalogStore) LockByID(ctx context.Context, id uint64) (*catalog.Service, error) {
	return s.findOn(s.locking(s.conn(ctx)), "id", id)
}

func (s *catalogStore) BySlug(ctx context.Context, slug string) (*catalog.Service, error) {
	return s.find(ctx, "slug", slug)
}

func (s *catalogStore) ExistingIDs(ctx context.Context, ids []uint64) ([]uint64, error) {
	found := []uint64{}
	if len(ids) == 0 {
		return found, nil
	}
	if err := s.conn(ctx).Model(&serviceRow{}).Where("id IN ?", ids).Pluck("id", &found).Error; err != nil {
		return nil, fmt.Errorf("find services by id: %w", translate(err))
	}
	return found, nil
}

// List lists services newest first; Q matches name, slug, category or description.
func (s *catalogStore) List(ctx context.Context, f catalog.Filter) ([]catalog.Service, int64, error) {
	filter := func(q *gorm.DB) *gorm.DB {
		if f.Status != "" {
			q = q.Where("status = ?", string(f.Status))
		}
		if f.Category != "" {
			q = q.Where("category = ?", f.Category)
		}
		if f.Q != "" {
			p := likePattern(f.Q)
			q = q.Where("(name LIKE ?"+likeEscape+" OR slug LIKE ?"+likeEscape+
				" OR category LIKE ?"+likeEscape+" OR description LIKE ?"+likeEscape+")", p, p, p, p)
		}
		return q
	}
	return pageNewest(s.conn(ctx), filter, f.Page, f.PerPage, "services", func(r *serviceRow) (catalog.Service, error) {
		v, err := openService(s.base, r)
		if err != nil {
			return catalog.Service{}, err
		}
		return *v, nil
	})
}

func (s *catalogStore) Update(ctx context.Context, svc *catalog.Service) error {
	r, err := sealedServiceRow(s.base, svc)
	if err != nil {
		return fmt.Errorf("update service %d: %w", svc.ID, err)
	}
	res := s.conn(ctx).Model(&serviceRow{}).Where("id = ?", svc.ID).Updates(map[string]any{
		"name":         r.Name,
		"slug":         r.Slug,
		"description":  r.Description,
		"category":     r.Category,
		"provider_url": r.ProviderURL,
		"provider_key": r.ProviderKey,
		"method":       r.Method,
		"headers":      r.Headers,
		"parameters":   r.Parameters,
		"status":       r.Status,
		"builtin":      r.Builtin,
		"sac_code":     r.SAC,
		"updated_at":   r.UpdatedAt,
	})
	if res.Error != nil {
		return serviceWriteError(fmt.Sprintf("update service %d", svc.ID), res.Error)
	}
	if res.RowsAffected == 0 {
		return catalog.ErrServiceNotFound
	}
	svc.UpdatedAt = timeFromDB(r.UpdatedAt)
	return nil
}

// Delete removes a service; its pricing rows and docs go with it (ON DELETE
// CASCADE), its hit logs stay.
func (s *catalogStore) Delete(ctx context.Context, id uint64) error {
	res := s.conn(ctx).Where("id = ?", id).Delete(&serviceRow{})
	if res.Error != nil {
		return fmt.Errorf("delete service %d: %w", id, translate(res.Error))
	}
	if res.RowsAffected == 0 {
		return catalog.ErrServiceNotFound
	}
	return nil
}

func (s *catalogStore) Doc(ctx context.Context, serviceID uint64) (*catalog.Doc, error) {
	var r docRow
	if err := s.conn(ctx).Where("api_service_id = ?", serviceID).Take(&r).Error; err != nil {
		return nil, errNotFoundOr(err, catalog.ErrDocNotFound)
	}
	return toDomainDoc(&r)
}

// PutDoc inserts the service's documentation or replaces every field of the
// existing record but its id and created_at, in one upsert on the unique
// api_service_id.
func (s *catalogStore) PutDoc(ctx context.Context, d *catalog.Doc) error {
	r, err := toDocRow(d)
	if err != nil {
		return fmt.Errorf("put docs of service %d: %w", d.ServiceID, err)
	}
	r.ID = 0
	err = s.conn(ctx).Clauses(clause.OnConflict{
		Columns: []clause.Column{{Name: "api_service_id"}},
		DoUpdates: clause.AssignmentColumns([]string{
			"endpoint", "method", "description", "request_params", "response_example",
			"error_codes", "sort_order", "updated_at",
		}),
	}).Create(&r).Error
	if err != nil {
		if f, _ := classify(err); f == failForeignKey {
			return catalog.ErrServiceNotFound.Wrap(err)
		}
		return fmt.Errorf("put docs of service %d: %w", d.ServiceID, translate(err))
	}
	// The id of a replaced row is not reported reliably by MySQL's upsert: read it.
	var stored docRow
	if err := s.conn(ctx).Select("id", "created_at", "updated_at").Where("api_service_id = ?", d.ServiceID).Take(&stored).Error; err != nil {
		return fmt.Errorf("read docs of service %d: %w", d.ServiceID, translate(err))
	}
	d.ID = stored.ID
	d.CreatedAt, d.UpdatedAt = timeFromDB(stored.CreatedAt), timeFromDB(stored.UpdatedAt)
	return nil
}
